import { and, eq } from 'drizzle-orm';
import { deviceTokens } from '../../db/schema';
import type { DeathDeps } from './deathDeps';

/**
 * A device of the member's, for push. A token is one device: registered again by another
 * member (a shared phone), it moves to them.
 */
export async function registerDeviceToken(
  deps: DeathDeps,
  userId: string,
  device: { token: string; platform: 'ios' | 'android' },
): Promise<void> {
  const now = deps.clock.now();
  await deps.db
    .insert(deviceTokens)
    .values({
      token: device.token,
      userId,
      platform: device.platform,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: deviceTokens.token,
      set: { userId, platform: device.platform, updatedAt: now },
    });
}

/** On logout: the device stops receiving the member's pushes (unknown tokens are fine). */
export async function deleteDeviceToken(deps: DeathDeps, userId: string, token: string) {
  await deps.db
    .delete(deviceTokens)
    .where(and(eq(deviceTokens.token, token), eq(deviceTokens.userId, userId)));
}
