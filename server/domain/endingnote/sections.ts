import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  ENDING_NOTE_SECTIONS,
  emptyValue,
  sectionCompletion,
  sectionDefinition,
  validateSectionValues,
  type FieldValue,
  type SectionCode,
  type SectionDefinition,
  type SectionValues,
  type SectionVisibility,
} from '../../../contract/rules/endingnote';
import type { memberName } from '../../../contract/common';
import type { noteView, sectionView } from '../../../contract/endingnote';
import type { ServedOf } from '../../../contract/endpoint';
import type { Db } from '../../db/database';
import { connections, endingNoteSections, users } from '../../db/schema';
import { conflict, invalid, notFound, type FieldError } from '../errors';
import { mayReadSection, resolveViewer } from './access';
import type { Sealer } from './sealing';

export interface EndingNoteDeps {
  db: Db;
  sealer: Sealer;
}

/** One section as the API answers it. `version` 0 means it was never saved. */
export type SectionView = ServedOf<typeof sectionView>;

export type MemberName = ServedOf<typeof memberName>;

/** The note as the caller may read it (the contract's `noteView`). */
export type NoteView = ServedOf<typeof noteView>;

type SectionRow = typeof endingNoteSections.$inferSelect;

/** Where a sealed value belongs; bound into its authentication tag. */
const sealPlace = (ownerUserId: string, section: string, field: string) =>
  `endingnote/${ownerUserId}/${section}/${field}`;

function encodeValues(
  sealer: Sealer,
  ownerUserId: string,
  section: SectionDefinition,
  values: SectionValues,
): { content: Record<string, FieldValue>; sealed: Record<string, string> } {
  const content: Record<string, FieldValue> = {};
  const sealed: Record<string, string> = {};
  for (const field of section.fields) {
    const value = values[field.code] ?? emptyValue(field.kind);
    if (field.sensitive) {
      sealed[field.code] = sealer.seal(
        JSON.stringify(value),
        sealPlace(ownerUserId, section.code, field.code),
      );
    } else {
      content[field.code] = value;
    }
  }
  return { content, sealed };
}

function decodeValues(
  sealer: Sealer,
  section: SectionDefinition,
  row: SectionRow | undefined,
): SectionValues {
  return Object.fromEntries(
    section.fields.map((field) => {
      const stored = field.sensitive ? row?.sealed[field.code] : row?.content[field.code];
      if (stored === undefined) return [field.code, emptyValue(field.kind)];
      const value = field.sensitive
        ? (JSON.parse(
            sealer.open(stored as string, sealPlace(row!.ownerUserId, section.code, field.code)),
          ) as FieldValue)
        : (stored as FieldValue);
      return [field.code, value];
    }),
  );
}

/**
 * A note nobody has written in yet, as its owner reads it: every section private, never saved,
 * every field empty (the page renderer's warm-up, server/routes/noteFirstPaint.ts).
 */
export function unwrittenNote(owner: MemberName): NoteView {
  // A section without a row has nothing sealed in it: nothing is sealed or opened.
  const refuse = (): string => {
    throw new Error('an unwritten note has nothing sealed');
  };
  const opensNothing: Sealer = { seal: refuse, open: refuse };
  return {
    userId: owner.userId,
    owner,
    viewer: 'owner',
    sections: ENDING_NOTE_SECTIONS.map((section) => toView(opensNothing, section, undefined)),
    members: [],
  };
}

function toView(sealer: Sealer, section: SectionDefinition, row: SectionRow | undefined) {
  const values = decodeValues(sealer, section, row);
  return {
    section: section.code as SectionCode,
    visibility: row?.visibility ?? 'private',
    version: row?.version ?? 0,
    updatedAt: row && row.version > 0 ? row.updatedAt.toISOString() : null,
    values,
    completion: sectionCompletion(section, values),
  } satisfies SectionView;
}

function requireSection(code: string): SectionDefinition {
  const section = sectionDefinition(code);
  if (!section) throw notFound('section');
  return section;
}

async function ownerName(db: Db, ownerUserId: string): Promise<MemberName | undefined> {
  const [owner] = await db
    .select({ userId: users.id, lastName: users.lastName, firstName: users.firstName })
    .from(users)
    .where(and(eq(users.id, ownerUserId), sql`${users.status} <> 'deleted'`));
  return owner;
}

async function memberNames(db: Db, userIds: string[]): Promise<MemberName[]> {
  if (userIds.length === 0) return [];
  return db
    .select({ userId: users.id, lastName: users.lastName, firstName: users.firstName })
    .from(users)
    .where(inArray(users.id, userIds));
}

function chosenMembers(views: SectionView[]): string[] {
  const ids = new Set<string>();
  for (const view of views) {
    const section = sectionDefinition(view.section)!;
    for (const field of section.fields) {
      if (field.kind === 'user-select') {
        for (const id of view.values[field.code] as string[]) ids.add(id);
      }
    }
  }
  return [...ids];
}

/**
 * The caller's view of a member's note: every section for the owner, the sections their
 * visibility opens for a designated reader, and 404 for everyone else (as for a note the
 * caller may not know exists).
 */
export async function readNote(
  { db, sealer }: EndingNoteDeps,
  ownerUserId: string,
  viewerUserId: string | undefined,
): Promise<NoteView> {
  const viewer = await resolveViewer(db, ownerUserId, viewerUserId);
  const owner = viewer && (await ownerName(db, ownerUserId));
  if (!viewer || !owner) throw notFound('ending note');
  const rows = await db
    .select()
    .from(endingNoteSections)
    .where(eq(endingNoteSections.ownerUserId, ownerUserId));
  const rowOf = new Map(rows.map((row) => [row.section, row]));
  const sections = ENDING_NOTE_SECTIONS.filter((section) =>
    mayReadSection(viewer, rowOf.get(section.code)?.visibility ?? 'private'),
  ).map((section) => toView(sealer, section, rowOf.get(section.code)));
  if (sections.length === 0) throw notFound('ending note');
  return {
    userId: ownerUserId,
    owner,
    viewer: viewer.role,
    sections,
    members: await memberNames(db, chosenMembers(sections)),
  };
}

/** One section, under the same rule as the whole note. */
export async function readSection(
  { db, sealer }: EndingNoteDeps,
  ownerUserId: string,
  sectionCode: string,
  viewerUserId: string | undefined,
): Promise<SectionView> {
  const section = requireSection(sectionCode);
  const viewer = await resolveViewer(db, ownerUserId, viewerUserId);
  if (!viewer) throw notFound('ending note');
  const [row] = await db
    .select()
    .from(endingNoteSections)
    .where(
      and(
        eq(endingNoteSections.ownerUserId, ownerUserId),
        eq(endingNoteSections.section, section.code),
      ),
    );
  if (!mayReadSection(viewer, row?.visibility ?? 'private')) throw notFound('section');
  return toView(sealer, section, row);
}

/** Members among `userIds` who are not connections of the owner. */
async function notConnected(db: Db, ownerUserId: string, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: connections.otherUserId })
    .from(connections)
    .where(and(eq(connections.userId, ownerUserId), inArray(connections.otherUserId, userIds)));
  const connected = new Set(rows.map((row) => row.userId));
  return new Set(userIds.filter((id) => !connected.has(id)));
}

/** 422 errors for user-select choices that are not the owner's connections. */
async function userSelectErrors(
  db: Db,
  ownerUserId: string,
  section: SectionDefinition,
  values: SectionValues,
): Promise<FieldError[]> {
  const selects = section.fields.filter((field) => field.kind === 'user-select');
  const strangers = await notConnected(
    db,
    ownerUserId,
    selects.flatMap((field) => values[field.code] as string[]),
  );
  return selects.flatMap((field) =>
    (values[field.code] as string[]).flatMap((id, index) =>
      strangers.has(id) ? [{ field: `values.${field.code}.${index}`, code: 'not_connected' }] : [],
    ),
  );
}

/**
 * Saves a section of the owner's own note when `version` is still the stored one; a save
 * started from an older version is refused with 409 `stale_section` and changes nothing,
 * so the client can keep what was typed and let the member decide.
 */
export async function saveSection(
  { db, sealer }: EndingNoteDeps,
  ownerUserId: string,
  sectionCode: string,
  update: { version: number; values: unknown },
  now: Date,
): Promise<SectionView> {
  const section = requireSection(sectionCode);
  const checked = validateSectionValues(section, update.values);
  if (!checked.ok) {
    throw invalid(
      checked.issues.map((issue) => ({
        field: issue.field ? `values.${issue.field}` : 'values',
        code: issue.code,
      })),
    );
  }
  const connectionErrors = await userSelectErrors(db, ownerUserId, section, checked.values);
  if (connectionErrors.length > 0) throw invalid(connectionErrors);

  const encoded = encodeValues(sealer, ownerUserId, section, checked.values);
  const [updated] = await db
    .update(endingNoteSections)
    .set({ ...encoded, version: update.version + 1, updatedAt: now })
    .where(
      and(
        eq(endingNoteSections.ownerUserId, ownerUserId),
        eq(endingNoteSections.section, section.code),
        eq(endingNoteSections.version, update.version),
      ),
    )
    .returning();
  const [inserted] =
    updated || update.version !== 0
      ? []
      : await db
          .insert(endingNoteSections)
          .values({
            ownerUserId,
            section: section.code,
            ...encoded,
            version: 1,
            updatedAt: now,
          })
          .onConflictDoNothing()
          .returning();
  const row = updated ?? inserted;
  if (!row) {
    throw conflict('stale_section', 'the section was saved elsewhere since it was loaded');
  }
  return toView(sealer, section, row);
}

/** Sets who may read a section of the owner's note; its values and version are untouched. */
export async function setSectionVisibility(
  { db, sealer }: EndingNoteDeps,
  ownerUserId: string,
  sectionCode: string,
  visibility: SectionVisibility,
  now: Date,
): Promise<SectionView> {
  const section = requireSection(sectionCode);
  const [row] = await db
    .insert(endingNoteSections)
    .values({ ownerUserId, section: section.code, visibility, updatedAt: now })
    .onConflictDoUpdate({
      target: [endingNoteSections.ownerUserId, endingNoteSections.section],
      set: { visibility },
    })
    .returning();
  return toView(sealer, section, row);
}
