import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';
import { lastActivationLink, registerActive, registrationBody } from './accountsSupport';

let t: TestApp;
let owner: TestMember;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createMember(t);
});
afterAll(async () => {
  await t.close();
});

async function petPageWithAdminLink(): Promise<{ memorialPageId: string; token: string }> {
  const page = await t.request({
    method: 'POST',
    url: '/v1/memorial_page',
    token: owner.token,
    body: { type: 'pet', first_name: 'タマ', first_name_kana: 'たま', animal_kind: '三毛猫' },
  });
  expect(page.statusCode, page.body).toBe(201);
  const { memorialPageId } = page.json() as { memorialPageId: string };
  const share = await t.request({
    method: 'POST',
    url: '/v1/share_token/create_share_token',
    token: owner.token,
    body: { memorial_page_id: memorialPageId, set_admin: true },
  });
  expect(share.statusCode, share.body).toBe(201);
  return { memorialPageId, token: (share.json() as { token: string }).token };
}

async function roleOf(memorialPageId: string, accessToken: string) {
  const response = await t.request({
    method: 'GET',
    url: `/v1/memorial_page/${memorialPageId}`,
    token: accessToken,
  });
  return response.statusCode === 200 ? (response.json() as { role: string | null }).role : null;
}

describe('registration in pet mode (admin_pet_id)', () => {
  it('makes the new member an admin of the pet page when the account is activated', async () => {
    const { memorialPageId, token } = await petPageWithAdminLink();
    const { login } = await registerActive(t, { admin_pet_id: token });
    expect(await roleOf(memorialPageId, login.accessToken)).toBe('admin');

    // The link is spent: a second registration with it makes no admin.
    const { login: second } = await registerActive(t, { admin_pet_id: token });
    expect(await roleOf(memorialPageId, second.accessToken)).toBeNull();
  });

  it('makes no admin before activation, and none from an unknown link', async () => {
    const { memorialPageId, token } = await petPageWithAdminLink();
    const body = registrationBody({ admin_pet_id: token });
    const registered = await t.request({ method: 'POST', url: '/v1/user', body });
    expect(registered.statusCode).toBe(202);
    const admins = await t.request({
      method: 'GET',
      url: `/v1/memorial_page/get_memorial_page_admin/${memorialPageId}`,
      token: owner.token,
    });
    expect((admins.json() as unknown[]).length).toBe(1);
    expect(lastActivationLink(t).email).toBe(body.email);

    const { login } = await registerActive(t, { admin_pet_id: 'not-a-link' });
    expect(login.accessToken).toEqual(expect.any(String));
  });
});
