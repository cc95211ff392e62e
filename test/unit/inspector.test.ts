import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInspector } from '@statelyai/inspect';
import { createActor, waitFor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { registrationMachine } from '../../src/machines/registration';
import type { AuthSession } from '../../contract/sessionLayer';
import type { SessionApi } from '../../src/services/api/session';
import { maskedInspectorOptions, MASKED } from '../../src/services/clientState/inspector';
import { authSessionWith } from '../../src/services/session/liveSession';

const ACCESS_TOKEN = 'access-token-of-hana-1234';
const ROTATED_TOKEN = 'rotated-token-of-hana-5678';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJoYW5hIn0.c2lnbmF0dXJlLW9mLWhhbmE';
const PASSWORD = 'hana-no-himitsu-2024';
const NOTE = '遺言：庭の桜の下に手紙を埋めました';

const session = (accessToken: string): AuthSession => ({
  user: { id: 'u-1', username: 'hana', memorialPageId: null, iconUrl: null },
  accessToken,
  expires: '2030-01-01T00:00:00.000Z',
});

/** What the session layer answers; its failures carry headers and a body, as axios's do. */
function sessionLayer(): SessionApi {
  let current = session(ACCESS_TOKEN);
  let refreshes = 0;
  return {
    fetchSession: async () => current,
    updateSession: async (data: { accessToken?: string }) => {
      current = { ...current, accessToken: data.accessToken ?? current.accessToken };
      return current;
    },
    refreshSession: async () => {
      refreshes += 1;
      if (refreshes > 1)
        throw Object.assign(new Error('Request failed with status code 500'), {
          config: { headers: { Authorization: `Bearer ${ROTATED_TOKEN}` } },
          response: { status: 500, data: { note: NOTE, token: JWT } },
        });
      current = session(ROTATED_TOKEN);
      return current;
    },
    signOut: async () => undefined,
    logClientError: async () => undefined,
  } as unknown as SessionApi;
}

/** An inspector with the app's options whose adapter keeps everything it would send. */
function recordingInspector() {
  const sent: unknown[] = [];
  const inspector = createInspector(
    { send: (event) => void sent.push(event) },
    {
      ...maskedInspectorOptions,
    },
  );
  return { sent, inspect: inspector.inspect };
}

/** The inspector hands events over on an idle callback. */
const flushed = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('the Stately inspector', () => {
  it('sees every actor of a session and none of its tokens, passwords or note content', async () => {
    const { sent, inspect } = recordingInspector();
    const actor = createActor(
      authSessionWith({
        session: sessionLayer(),
        watchTabs: () => () => undefined,
        announceChange: () => undefined,
        syncUser: () => undefined,
      }),
      { inspect },
    ).start();
    await waitFor(actor, (snapshot) => snapshot.matches('authenticated'));
    actor.send({ type: 'UPDATE', requestId: 1, data: { accessToken: JWT, username: 'hana' } });
    await waitFor(actor, (snapshot) => snapshot.context.pendingUpdates.length === 0);
    actor.send({ type: 'REFRESH' });
    await waitFor(actor, (snapshot) => snapshot.context.session?.accessToken === ROTATED_TOKEN);
    actor.send({ type: 'REFRESH' }); // this one fails with headers and a body
    await new Promise((resolve) => actor.on('refreshFailed', resolve));

    const registration = createActor(registrationMachine, { inspect }).start();
    registration.send({ type: 'START', query: 'register=true', pendingPetPageId: null });
    registration.send({ type: 'EDIT', field: 'password', value: PASSWORD });
    await flushed();
    actor.stop();
    registration.stop();

    const text = JSON.stringify(sent);
    for (const secret of [ACCESS_TOKEN, ROTATED_TOKEN, JWT, PASSWORD, NOTE])
      expect(text, `${secret} reached the inspector`).not.toContain(secret);
    expect(text).toContain(MASKED);

    // Every actor is there, not only the roots: the invoked calls and the refresh machine.
    const actorNames = new Set(
      sent
        .filter((event) => (event as { type: string }).type === '@xstate.actor')
        .map((event) => (event as { name: string }).name),
    );
    for (const name of ['authSession', 'fetchSession', 'updateSession', 'tokenRefresh'])
      expect(actorNames, name).toContain(name);
    expect(actorNames).toContain('registration');
  });
});

describe('actors the app creates', () => {
  it('are each given the inspector option, so every one of them reaches the visualiser', () => {
    const root = path.join(__dirname, '../../src');
    const sources = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter(
      // The server render runs no inspector; machines create no actors of their own.
      (file) => /\.tsx?$/.test(file) && !file.startsWith('machines') && file !== 'entry-server.tsx',
    );
    const uninspected = sources.flatMap((file) => {
      const text = readFileSync(path.join(root, file), 'utf8');
      const calls = [
        ...text.matchAll(/\b(?:useActorRef|useMachine|createActor)\(([^;]*?)\)[;\n]/gs),
      ];
      return calls
        .filter(([call]) => !call.includes('inspectOption()'))
        .map(([call]) => `${file}: ${call.slice(0, 60)}`);
    });
    expect(sources.length).toBeGreaterThan(50);
    expect(uninspected).toEqual([]);
  });
});
