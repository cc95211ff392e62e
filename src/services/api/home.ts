import type {
  DashboardOf,
  MourningOf,
  MourningPageFields,
  ProfileFields,
} from '../../contract/rules/social';
import { http } from '../http';
import type { MemberCard, NotificationItem } from './social';

/** The member's home calls (docs/social.md "Dashboard, mourning tab, my page"; docs/accounts.md). */

export type Dashboard = DashboardOf<MemberCard, NotificationItem, string>;

export interface MourningPage extends MourningPageFields {
  photoUrl: string | null;
}

export type Mourning = MourningOf<MourningPage, string>;

export interface Profile extends ProfileFields {
  iconUrl: string | null;
}

export type ProfileUpdate = Partial<
  Pick<
    Profile,
    | 'lastName'
    | 'firstName'
    | 'lastNameKana'
    | 'firstNameKana'
    | 'address'
    | 'birthdate'
    | 'sexCode'
    | 'iconName'
    | 'searchable'
  >
>;

export const homeKeys = {
  dashboard: ['home', 'dashboard'] as const,
  mourning: ['home', 'mourning'] as const,
  profile: ['mypage', 'profile'] as const,
};

export async function fetchDashboard(): Promise<Dashboard> {
  return (await http.get<Dashboard>('/v1/dashboard')).data;
}

export async function fetchMourning(): Promise<Mourning> {
  return (await http.get<Mourning>('/v1/mourning')).data;
}

export async function fetchProfile(): Promise<Profile> {
  return (await http.get<Profile>('/v1/mypage/profile')).data;
}

export async function updateProfile(update: ProfileUpdate): Promise<Profile> {
  return (await http.patch<Profile>('/v1/mypage/profile', update)).data;
}

/**
 * Answers the access token of the fresh session; every other session has ended. The server
 * keeps the new refresh token in this browser's session cookie.
 */
export async function changePassword(
  currentPassword: string,
  newPassword: string,
): Promise<{ accessToken: string }> {
  const { data } = await http.post<{ accessToken: string }>('/v1/mypage/password', {
    currentPassword,
    newPassword,
  });
  return { accessToken: data.accessToken };
}

export async function requestEmailChange(currentPassword: string, newEmail: string): Promise<void> {
  await http.post('/v1/mypage/email', { currentPassword, newEmail });
}

export async function confirmEmailChange(token: string): Promise<{ email: string }> {
  return (await http.post<{ email: string }>('/v1/mypage/email/confirm', { token })).data;
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
    http.get<unknown[]>('/v1/time_capsule_letter/get_unsent_letters'),
    http.get<{ openedAt: string | null }[]>('/v1/time_capsule_letter/get_received_letters'),
  ]);
  return {
    waiting: unsent.data.length,
    received: received.data.length,
    unopened: received.data.filter((letter) => !letter.openedAt).length,
  };
}

/** POST /v1/account/change_report: "this was not me" from a change notice's link. */
export async function reportChange(
  token: string,
): Promise<{ change: string; emailRestored: boolean }> {
  return (
    await http.post<{ change: string; emailRestored: boolean }>(
      '/v1/account/change_report',
      { token },
      { authenticate: false },
    )
  ).data;
}
