import type { ObjectStore } from '../../storage/objectStore';
import type { MemberCard } from '../../domain/social/members';

/** A member card on the wire: the icon's object name exchanged for a signed GET URL. */
export type WireCard<T extends MemberCard> = Omit<T, 'iconName'> & { iconUrl: string | null };

export async function withIconUrl<T extends MemberCard>(
  store: ObjectStore,
  card: T,
): Promise<WireCard<T>> {
  const { iconName, ...rest } = card;
  return { ...rest, iconUrl: iconName ? await store.signedUrl(iconName, 'GET') : null };
}

export function withIconUrls<T extends MemberCard>(
  store: ObjectStore,
  cards: T[],
): Promise<WireCard<T>[]> {
  return Promise.all(cards.map((card) => withIconUrl(store, card)));
}
