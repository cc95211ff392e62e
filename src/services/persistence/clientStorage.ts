import {
  PERSISTED_SLICES,
  type ClientSlices,
  type PersistedSlices,
  type SessionUserSlice,
} from '../../machines/clientState';

/** The one localStorage key under which the persisted slices live. Never holds a token. */
export const PERSIST_ROOT_KEY = 'persist:shinobu';

/** Reads the persisted slices; what is malformed is dropped (a non-string user id logs out). */
export async function readPersistedSlices(
  storage: Storage = localStorage,
): Promise<Partial<PersistedSlices>> {
  const raw = storage.getItem(PERSIST_ROOT_KEY);
  if (!raw) return {};
  const parsed = JSON.parse(raw) as Record<string, unknown>;
  const restored: Partial<PersistedSlices> = {};
  const user = parsed.user as Partial<SessionUserSlice> | null | undefined;
  if (user && typeof user.id === 'string' && typeof user.username === 'string') {
    restored.user = {
      id: user.id,
      username: user.username,
      memorialPageId: typeof user.memorialPageId === 'string' ? user.memorialPageId : null,
      iconUrl: typeof user.iconUrl === 'string' ? user.iconUrl : null,
    };
  }
  const admin = parsed.memorialAdmin as Partial<PersistedSlices['memorialAdmin']> | undefined;
  if (admin && typeof admin === 'object') {
    restored.memorialAdmin = {
      targetMemorialPageEncodedId:
        typeof admin.targetMemorialPageEncodedId === 'string'
          ? admin.targetMemorialPageEncodedId
          : null,
      expiresAt: typeof admin.expiresAt === 'number' ? admin.expiresAt : null,
      completed: admin.completed === true,
    };
  }
  const unread = parsed.unreadNotification as { count?: unknown } | undefined;
  if (unread && typeof unread.count === 'number' && unread.count >= 0) {
    restored.unreadNotification = { count: Math.floor(unread.count) };
  }
  return restored;
}

export function writePersistedSlices(slices: ClientSlices, storage: Storage = localStorage): void {
  const persisted = Object.fromEntries(PERSISTED_SLICES.map((name) => [name, slices[name]]));
  storage.setItem(PERSIST_ROOT_KEY, JSON.stringify(persisted));
}

/** Forgets the persisted slices (the client state's RESET). */
export function clearPersistedSlices(storage: Storage = localStorage): void {
  storage.removeItem(PERSIST_ROOT_KEY);
}
