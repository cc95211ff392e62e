import { deleteDeviceToken, registerDeviceToken } from '../api/deathDetection';
import { bridge, type Bridge } from './index';

/**
 * Push tokens (docs/native-bridge.md): after sign-in the app gives this device's token and the
 * server stores it for the member; on logout the app forgets it and the server deletes it.
 * Outside the app there is no device token: nothing happens.
 */
export async function registerThisDevice(on: Bridge = bridge): Promise<void> {
  if (!on.available()) return;
  const { token, platform } = await on.call('registerDeviceToken', {});
  await registerDeviceToken(token, platform);
}

/** Runs before the session ends: the server call still carries the member's token. */
export async function unregisterThisDevice(on: Bridge = bridge): Promise<void> {
  if (!on.available()) return;
  const { token } = await on.call('deleteToken', {});
  if (token) await deleteDeviceToken(token);
}
