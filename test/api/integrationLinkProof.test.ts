import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';
import { integrationLinkProof, tokenOf } from './deathDetectionSupport';

/**
 * An integration link needs the integration's own proof (docs/integrations.md): a member's
 * token alone links no one to an integration user id. Each attack is played against the real
 * app with the calls an attacker has: a link made up, a proof forged, expired, made for
 * another client, or used a second time.
 */

const FUNERAL = { clientId: 'funeral-co', secret: 'funeral-secret-0123456789' };
const INSURER = { clientId: 'insurer-co', secret: 'insurer-secret-0123456789' };
const MINUTE_MS = 60 * 1000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    FPOS_CLIENTS: `${FUNERAL.clientId}:${FUNERAL.secret},${INSURER.clientId}:${INSURER.secret}`,
  });
});
afterAll(async () => {
  await t.close();
});

let next = 0;
const fposUserId = () => `F-${process.pid}-${++next}`;

async function link(member: TestMember, body: Record<string, unknown>) {
  return t.request({
    method: 'POST',
    url: '/v1/fpos/verify_my_auth_access_token',
    body: { access_token: await tokenOf(t, member), ...body },
  });
}

async function linksOf(member: TestMember) {
  const answer = await t.request({
    method: 'GET',
    url: '/v1/fpos/integration_links',
    token: await tokenOf(t, member),
  });
  return answer.json().items as unknown[];
}

/** The integration's report about its user: 404 while no member is linked as that user. */
const report = (fposUser: string) =>
  t.request({
    method: 'POST',
    url: '/v1/fpos/integration/report_death_suspected',
    headers: {
      authorization: `Basic ${Buffer.from(`${FUNERAL.clientId}:${FUNERAL.secret}`).toString('base64')}`,
    },
    body: { fpos_user_id: fposUser },
  });

describe('an integration link', () => {
  it('is refused without the integration’s proof, and nobody is linked', async () => {
    const attacker = await createMember(t);
    const victimId = fposUserId();
    const bare = await link(attacker, { client_id: FUNERAL.clientId, fpos_user_id: victimId });
    expect(bare.statusCode).toBe(422);
    expect(bare.json().detail).toEqual(expect.any(String));
    expect(await linksOf(attacker)).toEqual([]);
    expect((await report(victimId)).statusCode).toBe(404);
  });

  it('is refused with a forged proof', async () => {
    const attacker = await createMember(t);
    const victimId = fposUserId();
    const guessed = integrationLinkProof(t, {
      ...FUNERAL,
      fposUserId: victimId,
      secret: 'a-secret-the-attacker-guessed',
    });
    const forged = await link(attacker, {
      client_id: FUNERAL.clientId,
      fpos_user_id: victimId,
      ...guessed,
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({
      code: 'integration_proof_invalid',
      detail: expect.any(String),
    });

    // A genuine proof for the attacker's own id does not stretch to another id or expiry.
    const own = integrationLinkProof(t, { ...FUNERAL, fposUserId: `${victimId}-own` });
    const moved = await link(attacker, {
      client_id: FUNERAL.clientId,
      fpos_user_id: victimId,
      ...own,
    });
    expect(moved.json().code).toBe('integration_proof_invalid');
    const stretched = await link(attacker, {
      client_id: FUNERAL.clientId,
      fpos_user_id: `${victimId}-own`,
      expires: own.expires + 3600,
      signature: own.signature,
    });
    expect(stretched.json().code).toBe('integration_proof_invalid');
    expect(await linksOf(attacker)).toEqual([]);
    expect((await report(victimId)).statusCode).toBe(404);
  });

  it('is refused with an expired proof, and with one that claims a long life', async () => {
    const member = await createMember(t);
    const id = fposUserId();
    const proof = integrationLinkProof(t, { ...FUNERAL, fposUserId: id });
    t.clock.advance(11 * MINUTE_MS);
    const late = await link(member, { client_id: FUNERAL.clientId, fpos_user_id: id, ...proof });
    expect(late.statusCode).toBe(403);
    expect(late.json()).toMatchObject({
      code: 'integration_proof_expired',
      detail: expect.any(String),
    });

    const longLived = integrationLinkProof(t, {
      ...FUNERAL,
      fposUserId: id,
      expiresInSeconds: 24 * 60 * 60,
    });
    const refused = await link(member, {
      client_id: FUNERAL.clientId,
      fpos_user_id: id,
      ...longLived,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('integration_proof_invalid');
    expect(await linksOf(member)).toEqual([]);
  });

  it('is refused with a proof another client made', async () => {
    const member = await createMember(t);
    const id = fposUserId();
    const insurers = integrationLinkProof(t, { ...INSURER, fposUserId: id });
    const crossed = await link(member, {
      client_id: FUNERAL.clientId,
      fpos_user_id: id,
      ...insurers,
    });
    expect(crossed.statusCode).toBe(403);
    expect(crossed.json().code).toBe('integration_proof_invalid');
    expect(await linksOf(member)).toEqual([]);
    expect((await report(id)).statusCode).toBe(404);
  });

  it('is made once with a genuine proof, which then links no one else', async () => {
    const member = await createMember(t);
    const other = await createMember(t);
    const id = fposUserId();
    const proof = integrationLinkProof(t, { ...FUNERAL, fposUserId: id });
    const body = { client_id: FUNERAL.clientId, fpos_user_id: id, ...proof };

    const linked = await link(member, body);
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json()).toMatchObject({ userId: member.id, fposUserId: id, linked: true });
    expect((await report(id)).statusCode).toBe(202);

    // The member unlinks; the same proof, from a browser's history, links them no more.
    const unlinked = await t.request({
      method: 'DELETE',
      url: `/v1/fpos/integration_links/${FUNERAL.clientId}`,
      token: await tokenOf(t, member),
    });
    expect(unlinked.statusCode).toBe(204);
    for (const someone of [member, other]) {
      const again = await link(someone, body);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({
        code: 'integration_proof_used',
        detail: expect.any(String),
      });
      expect(await linksOf(someone)).toEqual([]);
    }
  });

  it('is refused with a token whose session has ended, though its proof is genuine', async () => {
    const member = await createMember(t);
    const oldToken = await tokenOf(t, member);
    const ended = await t.request({
      method: 'POST',
      url: '/v1/logout/everywhere',
      token: oldToken,
    });
    expect(ended.statusCode).toBe(204);
    const id = fposUserId();
    const refused = await t.request({
      method: 'POST',
      url: '/v1/fpos/verify_my_auth_access_token',
      body: {
        access_token: oldToken,
        client_id: FUNERAL.clientId,
        fpos_user_id: id,
        ...integrationLinkProof(t, { ...FUNERAL, fposUserId: id }),
      },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'invalid_token', detail: expect.any(String) });
    expect((await report(id)).statusCode).toBe(404);
  });
});
