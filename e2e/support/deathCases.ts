import type { APIRequestContext } from '@playwright/test';
import { expect } from '@playwright/test';
import { accessTokenOf, registerMember, type E2eMember } from './members';
import { workerServer } from './fixtures';

/** Death cases on the real server, for the specs of the death-detection flow. */

export const DAY_MS = 24 * 3600_000;

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

interface Signed {
  userId: string;
  accessToken: string;
}

/** The member asks the other to connect as family, and they accept; answers the request id. */
export async function connectAsFamily(
  memberApi: APIRequestContext,
  member: Signed,
  otherApi: APIRequestContext,
  other: Signed,
): Promise<string> {
  const requested = await memberApi.post('/v1/connection/requests', {
    headers: bearer(member.accessToken),
    data: { to_user_id: other.userId, relationship: 'family' },
  });
  expect(requested.status(), await requested.text()).toBeLessThan(300);
  const { requestId } = (await requested.json()) as { requestId: string };
  const accepted = await otherApi.post(`/v1/connection/requests/${requestId}/accept`, {
    headers: bearer(other.accessToken),
    data: { relationship: 'family' },
  });
  expect(accepted.status(), await accepted.text()).toBe(204);
  return requestId;
}

/** A letter to `readerId`, titled `title`, delivered as soon as the writer's death is confirmed. */
export async function writeLetterForAfterDeath(
  writerApi: APIRequestContext,
  writerToken: string,
  readerId: string,
  title: string,
): Promise<void> {
  const letter = await writerApi.post('/v1/time_capsule_letter', {
    headers: bearer(writerToken),
    data: {
      title,
      body: 'これまで本当にありがとう。',
      recipients: [{ kind: 'member', user_id: readerId }],
      delivery: { rule: 'death', delay_days: 0 },
    },
  });
  expect(letter.status(), await letter.text()).toBe(201);
}

/**
 * A member (山田 花子, registered through the API) who names the signed-in administrator of
 * `api` as the one who may confirm their death, writes them a letter for after their death,
 * and is then reported as possibly deceased by that administrator (unless `report` is false).
 */
export async function suspectedMemberOf(
  api: APIRequestContext,
  administrator: E2eMember,
  playwright: { request: { newContext: (o: { baseURL?: string }) => Promise<APIRequestContext> } },
  {
    confirmable = true,
    report = true,
    beforeReport,
  }: {
    confirmable?: boolean;
    /** False: the administrator has not reported yet (she reports on the case page). */
    report?: boolean;
    /** Runs just before the report, with the member (e.g. to sign them in somewhere). */
    beforeReport?: (member: E2eMember) => Promise<void>;
  } = {},
) {
  const admin = await accessTokenOf(api, administrator);
  const memberApi = await playwright.request.newContext({ baseURL: workerServer().baseURL });
  const member = await registerMember(memberApi);
  const own = await accessTokenOf(memberApi, member);

  const requestId = await connectAsFamily(memberApi, own, api, admin);

  const settings = await memberApi.put('/v1/fpos/death_settings', {
    headers: bearer(own.accessToken),
    data: {
      rule: 'any_one',
      administrator_user_ids: [admin.userId],
      check_in_period_days: null,
      // Naming an administrator is a sensitive change: the member proves it is them.
      current_password: member.password,
    },
  });
  expect(settings.status(), await settings.text()).toBe(200);

  const title = `いつもありがとう ${requestId.slice(0, 8)}`;
  await writeLetterForAfterDeath(memberApi, own.accessToken, admin.userId, title);

  // An administrator may confirm a death only a week after being named.
  if (confirmable) await advanceServerClock(api, 7 * DAY_MS + 60_000);
  if (!report) return { memberApi, member, memberId: own.userId, adminId: admin.userId, title };
  await beforeReport?.(member);
  const adminNow = await accessTokenOf(api, administrator);
  const reported = await api.post('/v1/fpos/report_death_suspected', {
    headers: bearer(adminNow.accessToken),
    data: { user_id: own.userId },
  });
  expect(reported.status(), await reported.text()).toBe(201);
  return { memberApi, member, memberId: own.userId, adminId: admin.userId, title };
}

export async function advanceServerClock(api: APIRequestContext, ms: number) {
  const moved = await api.post('/v1/test/clock', { data: { advance_ms: ms } });
  expect(moved.status(), await moved.text()).toBeLessThan(300);
}
