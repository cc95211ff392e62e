import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS, issueAccessToken } from '../../server/domain/accessTokens';
import { createMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const readProfile = (userId: string, token: string) =>
  t.request({ method: 'GET', url: `/v1/user/${userId}`, token });

describe('bearer tokens', () => {
  it('work until the second their exp names, and not from that second on', async () => {
    const member = await createMember(t);
    expect((await readProfile(member.id, member.token)).statusCode).toBe(200);
    t.clock.advance(ACCESS_TOKEN_TTL_SECONDS * 1000 - 1);
    expect((await readProfile(member.id, member.token)).statusCode).toBe(200);
    t.clock.advance(1);
    const expired = await readProfile(member.id, member.token);
    expect(expired.statusCode).toBe(401);
    expect((await readProfile(member.id, member.token)).statusCode).toBe(401);
  });

  it('never accept a changed signature or a token of another key, however often sent', async () => {
    const member = await createMember(t);
    expect((await readProfile(member.id, member.token)).statusCode).toBe(200);
    const [header, payload, signature] = member.token.split('.');
    const flipped = `${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
    const otherKey = await issueAccessToken(member.id, 'another secret entirely', t.clock);
    for (const forged of [`${header}.${payload}.${flipped}`, otherKey]) {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        expect((await readProfile(member.id, forged)).statusCode).toBe(401);
      }
    }
  });

  it("stop showing a deleted member's profile on the very next read", async () => {
    const reader = await createMember(t);
    const leaving = await createMember(t);
    expect((await readProfile(leaving.id, reader.token)).statusCode).toBe(200);
    const deleted = await t.request({ method: 'DELETE', url: '/v1/user', token: leaving.token });
    expect(deleted.statusCode).toBe(204);
    expect((await readProfile(leaving.id, reader.token)).statusCode).toBe(404);
  });
});
