import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { notifySensitiveChange, type SensitiveChange } from '../../domain/accounts/changeNotices';
import { requireFreshProof } from '../../domain/accounts/freshProof';
import { currentUserId } from '../../http/authenticate';
import { accountDepsOf } from '../../areaDeps';

/**
 * The gate of a sensitive change, called once the caller is known to own what changes: the
 * current password from the body, or for an account without one a sign-in within 5 minutes
 * (docs/accounts.md, "Fresh proof"). Answers what `noticeOfChange` needs afterwards.
 */
export async function proveFreshly(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<{ userId: string; email: string }> {
  const userId = currentUserId(request);
  const body = request.body as { current_password?: string } | null | undefined;
  const { email } = await requireFreshProof(accountDepsOf(ctx), {
    userId,
    currentPassword: body?.current_password,
    authTime: request.authTime,
    client: request.ip,
  });
  return { userId, email };
}

/** Mails the member that `change` was made, with the link to report it. */
export async function noticeOfChange(
  ctx: AppContext,
  proven: { userId: string; email: string },
  change: SensitiveChange,
): Promise<void> {
  await notifySensitiveChange(accountDepsOf(ctx), {
    userId: proven.userId,
    to: proven.email,
    change,
  });
}
