import { certificatedOf } from '../deathDetection/settings';
import type { ObjectStore } from '../../storage/objectStore';
import type { MemberCard } from './members';
import type { SocialDeps } from './socialDeps';

/** A member card on the wire: the icon's object name exchanged for a signed GET URL. */
export type WireCard<T extends MemberCard> = Omit<T, 'iconName'> & { iconUrl: string | null };

async function withIconUrl<T extends MemberCard>(
  store: ObjectStore,
  card: T,
): Promise<WireCard<T>> {
  const { iconName, ...rest } = card;
  return { ...rest, iconUrl: iconName ? await store.signedUrl(iconName, 'GET') : null };
}

export function withIconUrls<T extends MemberCard>(
  { store }: Pick<SocialDeps, 'store'>,
  cards: T[],
): Promise<WireCard<T>[]> {
  return Promise.all(cards.map((card) => withIconUrl(store, card)));
}

/**
 * Adds each member's certificated badge (an ACTIVE identity certificate, docs/death-detection.md)
 * to the cards of a member list: true certificated, false not; the avatar shows either mark.
 */
export async function withCertificated<T extends { userId: string }>(
  { db, clock }: Pick<SocialDeps, 'db' | 'clock'>,
  cards: T[],
): Promise<(T & { certificated: boolean })[]> {
  const certificated = await certificatedOf(
    db,
    cards.map((card) => card.userId),
    clock.now(),
  );
  return cards.map((card) => ({ ...card, certificated: certificated.get(card.userId) ?? false }));
}

/** Items that carry a member (requests, dashboard news): the member as a wire card with its badge. */
export async function withWireMembers<T extends { member: MemberCard }>(
  deps: SocialDeps,
  items: T[],
): Promise<(Omit<T, 'member'> & { member: WireCard<MemberCard> & { certificated: boolean } })[]> {
  const members = await withCertificated(
    deps,
    await withIconUrls(
      deps,
      items.map((item) => item.member),
    ),
  );
  return items.map((item, index) => ({ ...item, member: members[index]! }));
}
