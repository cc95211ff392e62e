import type { SessionValue } from '../../services/session/useSession';

/** The part of the session the frame uses: who is logged in, if anyone, and their token. */
export type ShellSession = Pick<SessionValue, 'status' | 'user' | 'accessToken'>;

export type ShellUser = NonNullable<ShellSession['user']>;
