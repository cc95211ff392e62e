import type { APIRequestContext } from '@playwright/test';
import { expect } from '@playwright/test';
import { accessTokenOf, registerMember, type E2eMember } from './members';

export interface SharedInvitation {
  inviter: E2eMember;
  memorialPageId: string;
  /** The path of the link, as the sharing panel makes it. */
  link: string;
}

/**
 * An admin's invitation link made through the real API: to the inviter's own page, or with
 * `pet` to a pet page they create for it (the link then says pet=true, as the panel's does).
 */
export async function sharedInvitation(
  api: APIRequestContext,
  { setAdmin, pet = false }: { setAdmin: boolean; pet?: boolean },
): Promise<SharedInvitation> {
  const inviter = await registerMember(api);
  const login = await accessTokenOf(api, inviter);
  const headers = { authorization: `Bearer ${login.accessToken}` };
  let memorialPageId = login.memorialPageId;
  if (pet) {
    const created = await api.post('/v1/memorial_page', {
      headers,
      data: {
        type: 'pet',
        first_name: '\u30dd\u30c1',
        first_name_kana: '\u307d\u3061',
        animal_kind: 'shiba',
        death_date: '2024-03-14',
        privacy: 'connections',
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    memorialPageId = ((await created.json()) as { id: string }).id;
  }
  const made = await api.post('/v1/share_token/create_share_token', {
    headers,
    data: { memorial_page_id: memorialPageId, set_admin: setAdmin },
  });
  expect(made.status(), await made.text()).toBe(201);
  const share = (await made.json()) as { token: string; invitingUserId: string };
  const query = new URLSearchParams({
    shareToken: share.token,
    invitingUserId: share.invitingUserId,
    setAdmin: String(setAdmin),
    ...(pet ? { pet: 'true' } : {}),
  });
  return { inviter, memorialPageId, link: `/memory/invitation?${query}` };
}
