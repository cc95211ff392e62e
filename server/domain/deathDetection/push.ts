import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { deviceTokens, users } from '../../db/schema';

export interface PushMessage {
  /** A stable kind the app can route on (e.g. death_suspected). */
  kind: string;
  title: string;
  body: string;
  data: Record<string, string>;
}

/**
 * Delivers push messages to device tokens. The default logs them; PUSH_WEBHOOK_URL replaces
 * it with a gateway (APNs/FCM relay) that receives `{tokens: [{token, platform}], message}`.
 */
export interface PushSender {
  send(tokens: { token: string; platform: string }[], message: PushMessage): Promise<void>;
}

interface PushLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export function logPushSender(log: PushLog): PushSender {
  return {
    send: async (tokens, message) =>
      log.info({ devices: tokens.length, kind: message.kind, data: message.data }, 'push (logged)'),
  };
}

export function webhookPushSender(url: string, log: PushLog): PushSender {
  return {
    async send(tokens, message) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tokens, message }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) log.error({ status: response.status }, 'push gateway refused a message');
    },
  };
}

export function createPushSender(webhookUrl: string | undefined, log: PushLog): PushSender {
  return webhookUrl ? webhookPushSender(webhookUrl, log) : logPushSender(log);
}

/**
 * Sends to every device the member registered (a deleted account's devices get nothing); a
 * failure is logged, never thrown.
 */
export async function pushToMember(
  deps: { db: Db; push: PushSender; log: PushLog },
  userId: string,
  message: PushMessage,
): Promise<void> {
  try {
    const tokens = await deps.db
      .select({ token: deviceTokens.token, platform: deviceTokens.platform })
      .from(deviceTokens)
      .innerJoin(users, eq(users.id, deviceTokens.userId))
      .where(and(eq(deviceTokens.userId, userId), eq(users.status, 'active')));
    if (tokens.length > 0) await deps.push.send(tokens, message);
  } catch (error) {
    deps.log.error({ err: error, userId }, 'push failed');
  }
}
