import { and, asc, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { Db } from '../../db/database';
import {
  albumPhotos,
  condolences,
  connectionRequests,
  connections,
  deathAdministrators,
  deathAuditLog,
  deathCases,
  deathSettings,
  externalIdentities,
  flowerOfferings,
  fposLinks,
  historyEntries,
  letterDeliveries,
  memorialPageMembers,
  memorialPageProfiles,
  memorialPages,
  notifications,
  timeCapsuleLetterRecipients,
  timeCapsuleLetters,
  uploads,
  users,
} from '../../db/schema';
import type { Translate } from '../../../contract/rules/endingnote';
import { readNote, type EndingNoteDeps } from '../endingnote/sections';
import { keepsakeBook, type KeepsakeContent } from './keepsakeBook';

/** One file of the archive: data written as JSON, a text, or a stored object copied as it is. */
export type ArchiveEntry =
  | { path: string; json: unknown }
  | { path: string; text: string }
  | { path: string; objectName: string };

/** The part of an object name after its folder: the archive keeps the stored extension. */
const fileName = (prefix: string, objectName: string) =>
  `${prefix}${objectName.slice(objectName.indexOf('/') + 1)}`;

/**
 * Everything that is the member's, as the archive's files in the order they are written: a
 * JSON file per kind and the original bytes of every photo beside the JSON that names it.
 * Each JSON entry is produced only when the archive reaches it, so a member with many pages
 * holds one page's rows at a time.
 */
export async function* collectMemberData(
  deps: EndingNoteDeps,
  userId: string,
): AsyncGenerator<ArchiveEntry> {
  const { db } = deps;
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return;
  const identities = await db
    .select({ provider: externalIdentities.provider, createdAt: externalIdentities.createdAt })
    .from(externalIdentities)
    .where(eq(externalIdentities.userId, userId));
  yield {
    path: 'profile.json',
    json: {
      id: user.id,
      email: user.email,
      username: user.username,
      lastName: user.lastName,
      firstName: user.firstName,
      lastNameKana: user.lastNameKana,
      firstNameKana: user.firstNameKana,
      address: user.address,
      birthdate: user.birthdate,
      sexCode: user.sexCode,
      icon: user.iconName ? fileName('profile_icon/', user.iconName) : null,
      searchable: user.searchable,
      hasPassword: user.passwordHash !== null,
      signInProviders: identities,
      createdAt: user.createdAt,
      activatedAt: user.activatedAt,
    },
  };
  if (user.iconName) {
    yield { path: fileName('profile_icon/', user.iconName), objectName: user.iconName };
  }

  yield { path: 'connections.json', json: await connectionsOf(db, userId) };

  const pages = await db
    .select({ id: memorialPageMembers.memorialPageId })
    .from(memorialPageMembers)
    .where(and(eq(memorialPageMembers.userId, userId), eq(memorialPageMembers.role, 'admin')))
    .orderBy(asc(memorialPageMembers.createdAt));
  for (const { id } of pages) yield* memorialPage(db, id);

  yield* letters(db, userId);

  yield { path: 'ending_note.json', json: await readNote(deps, userId, userId) };
  // The documents of death reports about the member, which the member may view.
  const documents = await db
    .select({ objectName: uploads.objectName, putAt: uploads.putAt })
    .from(uploads)
    .where(and(eq(uploads.useKind, 'death_document'), eq(uploads.useId, userId)));
  yield {
    path: 'death_settings.json',
    json: {
      ...(await deathSettingsOf(db, userId)),
      reportDocuments: documents.map((document) => ({
        file: fileName('death_documents/', document.objectName),
        uploadedAt: document.putAt,
      })),
    },
  };
  for (const document of documents) {
    yield {
      path: fileName('death_documents/', document.objectName),
      objectName: document.objectName,
    };
  }
  yield {
    path: 'integration_links.json',
    json: await db
      .select({ clientId: fposLinks.clientId, createdAt: fposLinks.createdAt })
      .from(fposLinks)
      .where(eq(fposLinks.userId, userId)),
  };
  yield {
    path: 'notifications.json',
    json: await db
      .select({
        kind: notifications.kind,
        payload: notifications.payload,
        createdAt: notifications.createdAt,
        readAt: notifications.readAt,
      })
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(asc(notifications.createdAt)),
  };
}

async function connectionsOf(db: Db, userId: string) {
  const nameOf = { id: users.id, lastName: users.lastName, firstName: users.firstName };
  const connected = await db
    .select({
      user: nameOf,
      relationship: connections.relationship,
      createdAt: connections.createdAt,
    })
    .from(connections)
    .innerJoin(users, eq(users.id, connections.otherUserId))
    .where(eq(connections.userId, userId));
  const requests = await db
    .select()
    .from(connectionRequests)
    .where(or(eq(connectionRequests.fromUserId, userId), eq(connectionRequests.toUserId, userId)));
  return { connections: connected, requests };
}

/** One memorial page's files in `folder`: the page, album, history, condolences and flowers. */
async function* memorialPage(
  db: Db,
  pageId: string,
  folder = `memorial_pages/${pageId}/`,
): AsyncGenerator<ArchiveEntry, KeepsakeContent | undefined> {
  const [page] = await db
    .select({ page: memorialPages, profile: memorialPageProfiles })
    .from(memorialPages)
    .where(eq(memorialPages.id, pageId));
  if (!page) return;
  const members = await db
    .select({
      userId: memorialPageMembers.userId,
      lastName: users.lastName,
      firstName: users.firstName,
      role: memorialPageMembers.role,
    })
    .from(memorialPageMembers)
    .innerJoin(users, eq(users.id, memorialPageMembers.userId))
    .where(eq(memorialPageMembers.memorialPageId, pageId));
  const { photoName } = page.profile;
  const pageJson = {
    ...page.page,
    birthDate: page.profile.birthDate,
    deathDate: page.profile.deathDate,
    animalKind: page.profile.animalKind,
    privacy: page.profile.privacy,
    searchable: page.profile.searchable,
    photo: photoName ? fileName(folder, photoName) : null,
    members,
  };
  yield { path: `${folder}page.json`, json: pageJson };
  if (photoName) yield { path: fileName(folder, photoName), objectName: photoName };

  const album = await db
    .select()
    .from(albumPhotos)
    .where(eq(albumPhotos.memorialPageId, pageId))
    .orderBy(asc(albumPhotos.position));
  const albumJson = album.map(({ thumbnailName: _thumbnail, imageName, ...photo }) => ({
    ...photo,
    file: fileName(`${folder}album/`, imageName),
  }));
  yield { path: `${folder}album.json`, json: albumJson };
  for (const photo of album) {
    yield { path: fileName(`${folder}album/`, photo.imageName), objectName: photo.imageName };
  }

  const history = await db
    .select()
    .from(historyEntries)
    .where(eq(historyEntries.memorialPageId, pageId))
    .orderBy(asc(historyEntries.occurredOn));
  const historyJson = history.map(({ thumbnailName: _thumbnail, imageName, ...entry }) => ({
    ...entry,
    file: imageName ? fileName(`${folder}history/`, imageName) : null,
  }));
  yield { path: `${folder}history.json`, json: historyJson };
  for (const entry of history) {
    if (entry.imageName) {
      yield { path: fileName(`${folder}history/`, entry.imageName), objectName: entry.imageName };
    }
  }

  const condolenceRows = await db
    .select({
      authorUserId: condolences.authorUserId,
      authorLastName: users.lastName,
      authorFirstName: users.firstName,
      body: condolences.body,
      status: condolences.status,
      createdAt: condolences.createdAt,
    })
    .from(condolences)
    .innerJoin(users, eq(users.id, condolences.authorUserId))
    .where(eq(condolences.memorialPageId, pageId))
    .orderBy(asc(condolences.createdAt));
  yield { path: `${folder}condolences.json`, json: condolenceRows };
  const flowerRows = await db
    .select({
      userId: flowerOfferings.userId,
      lastName: users.lastName,
      firstName: users.firstName,
      offeredOn: flowerOfferings.offeredOn,
    })
    .from(flowerOfferings)
    .innerJoin(users, eq(users.id, flowerOfferings.userId))
    .where(eq(flowerOfferings.memorialPageId, pageId))
    .orderBy(asc(flowerOfferings.offeredOn));
  yield { path: `${folder}flowers.json`, json: flowerRows };
  return {
    page: pageJson,
    album: albumJson,
    history: historyJson,
    condolences: condolenceRows,
    flowers: flowerRows,
  };
}

async function* letters(db: Db, userId: string): AsyncGenerator<ArchiveEntry> {
  const photoPath = (letterId: string, name: string) => fileName(`letters/${letterId}/`, name);
  const written = await db
    .select()
    .from(timeCapsuleLetters)
    .where(eq(timeCapsuleLetters.senderUserId, userId))
    .orderBy(asc(timeCapsuleLetters.createdAt));
  const recipients = written.length
    ? await db
        .select()
        .from(timeCapsuleLetterRecipients)
        .where(
          inArray(
            timeCapsuleLetterRecipients.letterId,
            written.map((letter) => letter.id),
          ),
        )
    : [];
  // Received letters: only those delivered to the member, as they can read them.
  const received = await db
    .select({
      letter: timeCapsuleLetters,
      senderLastName: users.lastName,
      senderFirstName: users.firstName,
      deliveredAt: letterDeliveries.deliveredAt,
      openedAt: letterDeliveries.openedAt,
    })
    .from(letterDeliveries)
    .innerJoin(timeCapsuleLetters, eq(timeCapsuleLetters.id, letterDeliveries.letterId))
    .innerJoin(users, eq(users.id, timeCapsuleLetters.senderUserId))
    .where(
      and(eq(letterDeliveries.recipientUserId, userId), isNotNull(letterDeliveries.deliveredAt)),
    )
    .orderBy(asc(letterDeliveries.deliveredAt));
  yield {
    path: 'letters/written.json',
    json: written.map(({ photoNames, ...letter }) => ({
      ...letter,
      photos: photoNames.map((name) => photoPath(letter.id, name)),
      recipients: recipients
        .filter((recipient) => recipient.letterId === letter.id)
        .map(({ id: _id, letterId: _letter, ...recipient }) => recipient),
    })),
  };
  yield {
    path: 'letters/received.json',
    json: received.map(({ letter, ...delivery }) => ({
      id: letter.id,
      title: letter.title,
      body: letter.body,
      senderUserId: letter.senderUserId,
      senderLastName: delivery.senderLastName,
      senderFirstName: delivery.senderFirstName,
      deliveredAt: delivery.deliveredAt,
      openedAt: delivery.openedAt,
      photos: letter.photoNames.map((name) => photoPath(letter.id, name)),
    })),
  };
  for (const letter of [...written, ...received.map((row) => row.letter)]) {
    for (const name of letter.photoNames) {
      yield { path: photoPath(letter.id, name), objectName: name };
    }
  }
}

async function deathSettingsOf(db: Db, userId: string) {
  const [settings] = await db.select().from(deathSettings).where(eq(deathSettings.userId, userId));
  const administrators = await db
    .select({
      userId: deathAdministrators.administratorUserId,
      lastName: users.lastName,
      firstName: users.firstName,
      createdAt: deathAdministrators.createdAt,
      acceptedAt: deathAdministrators.acceptedAt,
    })
    .from(deathAdministrators)
    .innerJoin(users, eq(users.id, deathAdministrators.administratorUserId))
    .where(eq(deathAdministrators.userId, userId));
  const cases = await db
    .select()
    .from(deathCases)
    .where(eq(deathCases.userId, userId))
    .orderBy(asc(deathCases.openedAt));
  const log = await db
    .select({
      caseId: deathAuditLog.caseId,
      action: deathAuditLog.action,
      actorUserId: deathAuditLog.actorUserId,
      source: deathAuditLog.source,
      detail: deathAuditLog.detail,
      createdAt: deathAuditLog.createdAt,
    })
    .from(deathAuditLog)
    .where(eq(deathAuditLog.userId, userId))
    .orderBy(asc(deathAuditLog.seq));
  return { settings: settings ?? null, administrators, cases, log };
}

/**
 * A memorial page's keepsake: the page's files at the archive's top (the same files the
 * member archive keeps per page) and `book.html`, the page as a printable book made from the
 * same data.
 */
export async function* collectKeepsake(
  db: Db,
  t: Translate,
  pageId: string,
  madeAt: Date,
): AsyncGenerator<ArchiveEntry> {
  const content = yield* memorialPage(db, pageId, '');
  if (content) yield { path: 'book.html', text: keepsakeBook(t, content, madeAt) };
}
