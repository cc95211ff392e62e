/**
 * The identity verification's paths replayed in the UI, one screen per status: each
 * status read is the held server's answer with the app there (it answers the bridge's check
 * status) or not (a plain browser: no bridge at all); START and RETRY are the screen's
 * buttons; a certificate registration is the server's challenge, the app's certificate over
 * the bridge and the server's answer to it, or an app that is gone when asked. Every state is
 * checked by what the member sees.
 */
import { cleanup, screen as page, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import {
  AppAbsentError,
  identityVerificationMachine,
  type IdentityVerificationEvent,
  type LoadedStatus,
} from '../../src/machines/identityVerification';
import { Component as IdentityVerificationScreen } from '../../src/screens/identityVerification/IdentityVerificationScreen';
import { formatTokyoDate } from '../../src/screens/deathConfirmation/dates';
import { BRIDGE_PROTOCOL, BRIDGE_VERSION } from '../../src/services/bridge/protocol';
import { identityVerificationEvents } from '../model/identityVerificationEvents';
import { holdServer, request, type HeldServer } from './replay/heldServer';
import { describeUiReplay, type Executor, type ViewAssertion } from './replay/uiReplay';
import { renderRoutes, translated } from './shellProviders';

type Call = 'loadStatus' | 'registerCertificate';
type EventType = IdentityVerificationEvent['type'] | `xstate.${'done' | 'error'}.actor.${Call}`;

type HostWindow = Window & { ReactNativeWebView?: { postMessage: (message: string) => void } };

const STATUS_READ = request('GET', '/v1/identity_verification/status');
const CHALLENGE = request('POST', '/v1/identity_verification/challenge');
const CERTIFICATE = request('POST', '/v1/identity_verification/certificate');

/** The screen itself (its <main>): toasts live apart, in their own root. */
const screen = {
  getByText: (...args: Parameters<typeof page.getByText>) =>
    within(page.getByRole('main')).getByText(...args),
  findByText: async (...args: Parameters<typeof page.findByText>) =>
    within(await page.findByRole('main')).findByText(...args),
  getByRole: (...args: Parameters<typeof page.getByRole>) =>
    within(page.getByRole('main')).getByRole(...args),
  queryByRole: (...args: Parameters<typeof page.queryByRole>) =>
    within(page.getByRole('main')).queryByRole(...args),
  findByRole: async (...args: Parameters<typeof page.findByRole>) =>
    within(await page.findByRole('main')).findByRole(...args),
};

/** The toasts saying `text`, in the toast root. */
const toastsSaying = (text: string) => {
  const root = document.getElementById('toast-root');
  return root ? within(root).queryAllByText(text).length : 0;
};

interface World {
  server: HeldServer;
  user: ReturnType<typeof userEvent.setup>;
  /** The app's bridge calls not answered yet. */
  bridgeCalls: { id: string; type: string }[];
  /** The status the screen was last answered. */
  status: LoadedStatus | null;
  /** The registration-failure toasts shown before the last refusal. */
  toastsBefore: number;
}

/** The app around the page: it holds each bridge call until the path answers it. */
function installAppHost(world: World) {
  (window as HostWindow).ReactNativeWebView = {
    postMessage: (message) => {
      const { id, type } = JSON.parse(message) as { id: string; type: string };
      world.bridgeCalls.push({ id, type });
    },
  };
}

/** A plain browser: no app answers the bridge. */
const removeAppHost = () => delete (window as HostWindow).ReactNativeWebView;

async function replyOverBridge(world: World, type: string, result: unknown) {
  await waitFor(() => expect(world.bridgeCalls.map((call) => call.type)).toEqual([type]));
  const call = world.bridgeCalls.shift()!;
  window.dispatchEvent(
    new MessageEvent('message', {
      data: JSON.stringify({
        protocol: BRIDGE_PROTOCOL,
        version: BRIDGE_VERSION,
        replyTo: call.id,
        ok: true,
        result,
      }),
    }),
  );
}

/** The status as the server sends it. */
const wireStatus = (status: LoadedStatus) => ({
  authStatus: status.authStatus,
  certificate: status.notAfter
    ? { fingerprint: 'ab:cd', subjectEmail: 'me@example.jp', notAfter: status.notAfter }
    : null,
  revokedReason: status.revokedReason,
});

const CHALLENGE_ANSWER = {
  challengeId: 'challenge-1',
  challenge: 'c2lnbiBtZQ',
  mailAddress: 'me@example.jp',
  expiresAt: '2026-11-22T00:10:00.000Z',
};
const CERTIFICATE_FROM_APP = { certificatePem: 'PEM', signature: 'SIG' };

/** The server's challenge, then (if the app is still there) its certificate posted back. */
async function challengeAnswered(world: World) {
  await world.server.answer(CHALLENGE, { status: 201, body: CHALLENGE_ANSWER });
}

const executors = {
  'xstate.done.actor.loadStatus': async (world, event) => {
    const status = (event as unknown as { output: LoadedStatus }).output;
    world.status = status;
    if (status.appPresent) installAppHost(world);
    else removeAppHost();
    await world.server.answer(STATUS_READ, { status: 200, body: wireStatus(status) });
    if (status.appPresent)
      await replyOverBridge(world, 'checkStatus', {
        appVersion: '3.1.0',
        platform: 'android',
        deviceStatus: status.authStatus,
      });
  },
  'xstate.error.actor.loadStatus': async (world) => {
    await world.server.answer(STATUS_READ, { status: 503, body: {} });
  },
  START: async (world, _event, before) => {
    const label = {
      INITIAL: 'identity-start',
      PROGRESS: 'identity-start-again',
      REVOKED: 'identity-start-again',
      ACTIVE: 'identity-start-new-device',
    }[before.states[0] as 'INITIAL'];
    const button = screen.queryByRole('button', { name: translated(label) });
    // A browser is offered no registration once verified.
    if (before.states[0] === 'ACTIVE' && !world.status!.appPresent)
      return expect(button).toBeNull();
    await world.user.click(button!);
  },
  RETRY: async (world) => {
    await world.user.click(screen.getByRole('button', { name: translated('identity-retry') }));
  },
  'xstate.done.actor.registerCertificate': async (world) => {
    await challengeAnswered(world);
    await replyOverBridge(world, 'startCertificateRegistration', CERTIFICATE_FROM_APP);
    const sent = await world.server.answer(CERTIFICATE, {
      status: 201,
      body: wireStatus({ ...world.status!, authStatus: 'ACTIVE' }),
    });
    expect(sent.body).toEqual({
      challenge_id: 'challenge-1',
      certificate_pem: 'PEM',
      signature: 'SIG',
    });
  },
  'xstate.error.actor.registerCertificate': async (world, event) => {
    const error = (event as unknown as { error: unknown }).error;
    if (error instanceof AppAbsentError) {
      // The app went away before it was asked for the certificate.
      removeAppHost();
      await challengeAnswered(world);
      return;
    }
    await challengeAnswered(world);
    await replyOverBridge(world, 'startCertificateRegistration', CERTIFICATE_FROM_APP);
    world.toastsBefore = toastsSaying(translated('identity-registration-failed'));
    await world.server.answer(CERTIFICATE, {
      status: 422,
      body: { errors: [{ field: 'certificate_pem', code: 'certificate_not_trusted' }] },
    });
  },
} satisfies Record<EventType, Executor<World>>;

/** None of the screen's ways on (a toast's close button is no part of the screen). */
const noButtons = () => {
  for (const label of [
    'identity-start',
    'identity-start-again',
    'identity-start-new-device',
    'identity-retry',
  ])
    expect(screen.queryByRole('button', { name: translated(label) }), label).toBeNull();
};

const views: Record<string, ViewAssertion<World>> = {
  loading: async (world, { event }) => {
    await waitFor(() => expect(world.server.pending.some(STATUS_READ)).toBe(true));
    screen.getByText(translated('identity-loading'));
    // A refused certificate: an error toast says so.
    if (event?.type === 'xstate.error.actor.registerCertificate')
      await waitFor(() =>
        expect(toastsSaying(translated('identity-registration-failed'))).toBeGreaterThan(
          world.toastsBefore,
        ),
      );
  },
  INITIAL: async () => {
    await screen.findByText(translated('identity-initial'));
    screen.getByRole('button', { name: translated('identity-start') });
  },
  PROGRESS: async () => {
    await screen.findByText(translated('identity-progress'));
    screen.getByRole('button', { name: translated('identity-start-again') });
  },
  REVOKED: async (world) => {
    await screen.findByText(translated(`identity-revoked-${world.status!.revokedReason!}`));
    screen.getByRole('button', { name: translated('identity-start-again') });
  },
  ACTIVE: async (world) => {
    await screen.findByText(
      translated('identity-active', { until: formatTokyoDate(world.status!.notAfter!) }),
    );
    const again = screen.queryByRole('button', {
      name: translated('identity-start-new-device'),
    });
    expect(again !== null).toBe(world.status!.appPresent);
  },
  needsApp: async (world) => {
    await screen.findByText(translated('identity-needs-app'));
    screen.getByText(translated(`identity-status-${world.status!.authStatus}`));
    screen.getByRole('link', { name: new RegExp(translated('app-store-link-google-play')) });
    noButtons();
  },
  registering: async (world) => {
    await waitFor(() => expect(world.server.pending.some(CHALLENGE)).toBe(true));
    screen.getByText(translated('identity-registering'));
    noButtons();
  },
  failed: async () => {
    expect((await screen.findByRole('alert')).textContent).toBe(translated('identity-load-failed'));
    screen.getByRole('button', { name: translated('identity-retry') });
  },
};

describeUiReplay('identityVerification', {
  machine: identityVerificationMachine,
  events: identityVerificationEvents,
  executors,
  views,
  mount: () => {
    const world: World = {
      server: holdServer(),
      user: userEvent.setup(),
      bridgeCalls: [],
      status: null,
      toastsBefore: 0,
    };
    // The app is there until a status read says otherwise.
    installAppHost(world);
    renderRoutes(
      [{ path: '/identity-verification', Component: IdentityVerificationScreen }],
      '/identity-verification',
    );
    return world;
  },
  unmount: async (world) => {
    cleanup();
    removeAppHost();
    await world.server.restore();
  },
});
