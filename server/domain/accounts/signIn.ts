import { eq } from 'drizzle-orm';
import { memorialPages, users } from '../../db/schema';
import { issueAccessToken } from '../accessTokens';
import { onMemberSignIn } from '../deathDetection/suspicion';
import type { AccountDeps } from './accountDeps';
import { issueRefreshToken } from './refreshTokens';
import { ownMemorialPage } from '../ownPage';

/** The answer of POST /v1/login and of activation: who signed in and their tokens. */
export interface SignInResult {
  userId: string;
  username: string;
  memorialPageId: string | null;
  userIconUrl: string | null;
  accessToken: string;
  refreshToken: string;
}

/** A signed GET URL for the member's icon, or null when they have none. */
export async function iconUrlOf(
  deps: AccountDeps,
  iconName: string | null,
): Promise<string | null> {
  return iconName ? deps.store.signedUrl(iconName, 'GET') : null;
}

/** Starts a session (a new refresh-token family) for an active member. */
export async function signIn(deps: AccountDeps, userId: string): Promise<SignInResult> {
  const [row] = await deps.db
    .select({
      username: users.username,
      iconName: users.iconName,
      sessionEpoch: users.sessionEpoch,
      memorialPageId: memorialPages.id,
    })
    .from(users)
    .leftJoin(memorialPages, ownMemorialPage())
    .where(eq(users.id, userId));
  if (!row) throw new Error(`signIn: no user ${userId}`);
  // Death detection: a memorialized account is refused; the member's own sign-in cancels a suspicion.
  await onMemberSignIn(deps, userId);
  const now = deps.clock.now();
  await deps.db.update(users).set({ lastActiveAt: now }).where(eq(users.id, userId));
  return {
    userId,
    username: row.username,
    memorialPageId: row.memorialPageId,
    userIconUrl: await iconUrlOf(deps, row.iconName),
    accessToken: await issueAccessToken(
      userId,
      deps.authSecret,
      deps.clock,
      deps.clock.now(),
      row.sessionEpoch,
    ),
    refreshToken: await issueRefreshToken(deps.db, userId, deps.clock),
  };
}
