import { eq, sql } from 'drizzle-orm';
import { queryRows } from '../db/rows';
import { endingNoteSections, users } from '../db/schema';
import type { ServedOf } from '../../contract/endpoint';
import { SECTION_CODES } from '../../contract/rules/endingnote';
import type { visibilityOverview } from '../../contract/visibility';
import { listReaders } from './endingnote/readers';
import type { SocialDeps } from './social/socialDeps';
import { listWrittenLetters } from './timecapsule/letters';

export type VisibilityOverview = ServedOf<typeof visibilityOverview>;

/**
 * What the member has that others may see, in one answer: whether search lists them, the
 * memorial pages they keep (their own first), every ending-note section with its readers,
 * and every letter they wrote. Each part is read with the rule its own area applies, so the
 * overview cannot promise more or less than the areas grant.
 */
export async function readVisibilityOverview(
  { db }: Pick<SocialDeps, 'db'>,
  userId: string,
): Promise<VisibilityOverview> {
  const [member] = await db
    .select({ searchable: users.searchable })
    .from(users)
    .where(eq(users.id, userId));
  const pages = await queryRows<VisibilityOverview['pages'][number]>(
    db,
    sql`select p.id as "memorialPageId", p.type,
        coalesce(p.owner_user_id = ${userId}, false) as own, p.last_name as "lastName",
        p.first_name as "firstName", p.privacy, p.searchable
      from memorial_page_members m join memorial_pages p on p.id = m.memorial_page_id
      where m.user_id = ${userId} and m.role = 'admin'
      order by p.owner_user_id is distinct from ${userId}, p.created_at, p.id`,
  );
  const saved = await db
    .select({ section: endingNoteSections.section, visibility: endingNoteSections.visibility })
    .from(endingNoteSections)
    .where(eq(endingNoteSections.ownerUserId, userId));
  const visibilityOf = new Map(saved.map((row) => [row.section, row.visibility]));
  return {
    searchable: member?.searchable ?? false,
    pages,
    endingNote: {
      sections: SECTION_CODES.map((section) => ({
        section,
        visibility: visibilityOf.get(section) ?? 'private',
      })),
      readers: await listReaders(db, userId),
    },
    letters: await listWrittenLetters({ db }, userId),
  };
}
