import type { z } from 'zod';
import { accountEndpoints as accounts } from '../../../contract/accounts';
import type { CallInput } from '../http/callEndpoint';
import {
  socialEndpoints as social,
  type dashboardView,
  type mourningPage,
  type mourningView,
  type profileView,
} from '../../../contract/social';
import { timecapsuleEndpoints as letters } from '../../../contract/timecapsule';
import { callEndpoint } from '../http/callEndpoint';

/** The member's home calls (docs/social.md "Dashboard, mourning tab, my page"; docs/accounts.md). */

export type Dashboard = z.infer<typeof dashboardView>;
export type MourningPage = z.infer<typeof mourningPage>;
export type Mourning = z.infer<typeof mourningView>;
export type Profile = z.infer<typeof profileView>;
/** The fields to change, in camelCase (the client sends them in snake_case). */
export type ProfileUpdate = CallInput<typeof social.updateProfile>['body'];

export const homeKeys = {
  dashboard: ['home', 'dashboard'] as const,
  mourning: ['home', 'mourning'] as const,
  profile: ['mypage', 'profile'] as const,
};

export function fetchDashboard(): Promise<Dashboard> {
  return callEndpoint(social.readDashboard, {});
}

export function fetchMourning(): Promise<Mourning> {
  return callEndpoint(social.readMourning, {});
}

export function fetchProfile(): Promise<Profile> {
  return callEndpoint(social.readProfile, {});
}

export function updateProfile(update: ProfileUpdate): Promise<Profile> {
  return callEndpoint(social.updateProfile, { body: update });
}

/**
 * Answers the access token of the fresh session; every other session has ended. The server
 * keeps the new refresh token in this browser's session cookie.
 */
export async function changePassword(
  currentPassword: string,
  newPassword: string,
): Promise<{ accessToken: string }> {
  const { accessToken } = await callEndpoint(accounts.changePassword, {
    body: { currentPassword, newPassword },
  });
  return { accessToken };
}

export async function requestEmailChange(currentPassword: string, newEmail: string): Promise<void> {
  await callEndpoint(accounts.requestEmailChange, { body: { currentPassword, newEmail } });
}

export function confirmEmailChange(token: string): Promise<{ email: string }> {
  return callEndpoint(accounts.confirmEmailChange, { body: { token } });
}

/** The time-capsule side of the dashboard, counted from that area's list calls. */
export interface TimeCapsuleStatus {
  /** Letters the member wrote that are not delivered yet. */
  waiting: number;
  received: number;
  unopened: number;
}

export async function fetchTimeCapsuleStatus(): Promise<TimeCapsuleStatus> {
  const [unsent, received] = await Promise.all([
    callEndpoint(letters.listUnsentLetters, {}),
    callEndpoint(letters.listReceivedLetters, {}),
  ]);
  return {
    waiting: unsent.length,
    received: received.length,
    unopened: received.filter((letter) => !letter.openedAt).length,
  };
}

/** POST /v1/account/change_report: "this was not me" from a change notice's link. */
export function reportChange(token: string): Promise<{ change: string; emailRestored: boolean }> {
  return callEndpoint(accounts.reportChange, { body: { token } }, { authenticate: false });
}
