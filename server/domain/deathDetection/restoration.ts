import { and, asc, eq, gte, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/rows';
import {
  accountRestorationLinks,
  connections,
  deathAuditLog,
  deathCases,
  deathSettings,
  endingNoteReaders,
  externalIdentities,
  endingNoteSections,
  letterDeliveries,
  memorialPages,
  notifications,
  timeCapsuleLetterRecipients,
  timeCapsuleLetters,
  userDeaths,
  users,
} from '../../db/schema';
import { enqueueMail, enqueueMails, withdrawMailsAbout } from '../../mail/outbox';
import { hashSecretToken, newSecretToken } from '../accounts/secretTokens';
import { verifyPassword } from '../accounts/passwords';
import type { Clock } from '../../lib/clock';
import { DomainError } from '../errors';
import { notify } from '../social/notifications';
import { undoChoices } from './afterDeath';
import { recordAudit } from './audit';
import { fullName } from './mails';
import {
  restorationLinkMail,
  restoredMailToConnection,
  restoredMailToMember,
} from './restorationMails';
import { administratorsOf } from './settings';
import { markSuspicionNoticesCancelled } from './suspicion';
import { holdLettersOnRestoration } from '../timecapsule/death';
import type { accountRestoration, restorationLinkState } from '../../../contract/deathDetection';
import type { ServedOf } from '../../../contract/endpoint';
import type { Translate } from '../../../contract/rules/endingnote';
import { ownMemorialPage } from '../ownPage';

/** A restoration link lives a day and is spent by a restoration or by this many wrong passwords. */
export const RESTORATION_LINK_TTL_MS = 24 * 60 * 60 * 1000;
export const RESTORATION_MAX_WRONG_PASSWORDS = 5;
/** A new sign-in with the member's provider stands in for the password this long. */
export const RESTORATION_PROOF_TTL_MS = 30 * 60 * 1000;

export interface RestorationDeps {
  db: Db;
  clock: Clock;
  publicUrl: string;
  /** The app's Japanese texts by Fluent id: the mails are written from them. */
  texts: () => Promise<Translate>;
}

/**
 * Thrown by every sign-in of a member whose death was released: the account is kept as
 * memorial content. `releasedAt` lets the sign-in screen say when.
 */
export class AccountMemorialized extends DomainError {
  constructor(
    readonly caseId: string,
    readonly releasedAt: Date,
  ) {
    super('forbidden', 'account_memorialized', 'this account is kept as memorial content');
  }
}

/** The SPA screen that asks for the password and calls POST /v1/account_restoration. */
export function restorationLink(publicUrl: string, token: string): string {
  return `${publicUrl}/restore-account?${new URLSearchParams({ token }).toString()}`;
}

/**
 * The member proved their password (or signed in with `provider`) at a sign-in that was
 * refused because their death was released: mails them a link that, with the password or the
 * provider again, restores the account. Every such sign-in mails a new link; each works once,
 * and a restoration spends them all.
 */
export async function offerRestoration(
  deps: RestorationDeps,
  userId: string,
  refusal: AccountMemorialized,
  provider?: string,
): Promise<void> {
  const [member] = await deps.db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  if (!member) return;
  const token = newSecretToken();
  const now = deps.clock.now();
  const mail = restorationLinkMail(
    await deps.texts(),
    member.email,
    restorationLink(deps.publicUrl, token),
    refusal.releasedAt,
    provider,
  );
  await deps.db.transaction(async (tx) => {
    await tx.insert(accountRestorationLinks).values({
      tokenHash: hashSecretToken(token),
      userId,
      caseId: refusal.caseId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + RESTORATION_LINK_TTL_MS),
    });
    await enqueueMail(tx, { kind: 'account_restoration', userId, ...mail }, deps.clock);
  });
}

const linkInvalid = () =>
  new DomainError(
    'link_invalid',
    'restoration_link_invalid',
    'the restoration link is unknown, used or expired',
  );

/** A link that can still restore: unknown, used, expired and spent links are refused. */
async function usableLink(deps: RestorationDeps, token: string) {
  const tokenHash = hashSecretToken(token);
  const now = deps.clock.now();
  const [link] = await deps.db
    .select({
      userId: accountRestorationLinks.userId,
      caseId: accountRestorationLinks.caseId,
      provenAt: accountRestorationLinks.provenAt,
      passwordHash: users.passwordHash,
    })
    .from(accountRestorationLinks)
    .innerJoin(users, eq(users.id, accountRestorationLinks.userId))
    .where(
      and(
        eq(accountRestorationLinks.tokenHash, tokenHash),
        isNull(accountRestorationLinks.usedAt),
        sql`${accountRestorationLinks.expiresAt} > ${now.toISOString()}::timestamptz`,
        sql`${accountRestorationLinks.failedAttempts} < ${RESTORATION_MAX_WRONG_PASSWORDS}`,
      ),
    );
  if (!link) throw linkInvalid();
  const proven =
    link.provenAt !== null && now.getTime() - link.provenAt.getTime() < RESTORATION_PROOF_TTL_MS;
  return { ...link, tokenHash, now, proven };
}

/** A wrong password or another person's provider sign-in: counted against the link. */
async function countFailure(deps: RestorationDeps, tokenHash: string): Promise<void> {
  // Counted outside any transaction: a refusal must not roll it back.
  await deps.db
    .update(accountRestorationLinks)
    .set({ failedAttempts: sql`${accountRestorationLinks.failedAttempts} + 1` })
    .where(eq(accountRestorationLinks.tokenHash, tokenHash));
}

/**
 * What the link's page shows before anything is typed: when the death was released, whether
 * the member has a password, the providers they sign in with, and whether a provider sign-in
 * has proven the link already. A used or expired link is refused here, at once.
 */
export async function restorationLinkNeeds(
  deps: RestorationDeps,
  token: string,
): Promise<ServedOf<typeof restorationLinkState>> {
  const link = await usableLink(deps, token);
  const [released] = await deps.db
    .select({ releasedAt: deathCases.releasedAt })
    .from(deathCases)
    .where(and(eq(deathCases.id, link.caseId), eq(deathCases.state, 'released')));
  if (!released?.releasedAt) throw linkInvalid();
  const providers = await deps.db
    .selectDistinct({ provider: externalIdentities.provider })
    .from(externalIdentities)
    .where(eq(externalIdentities.userId, link.userId))
    .orderBy(asc(externalIdentities.provider));
  return {
    releasedAt: released.releasedAt.toISOString(),
    hasPassword: link.passwordHash !== null,
    providers: providers.map((row) => row.provider),
    proven: link.proven,
  };
}

/**
 * A member without a password (or who prefers it) proves the link by signing in again with
 * their provider: an identity linked to the link's member proves it for half an hour; anyone
 * else's is refused and counted like a wrong password.
 */
export async function proveRestoration(
  deps: RestorationDeps,
  token: string,
  identity: { provider: string; providerUserId: string },
): Promise<ServedOf<typeof restorationLinkState>> {
  const link = await usableLink(deps, token);
  const [linked] = await deps.db
    .select({ userId: externalIdentities.userId })
    .from(externalIdentities)
    .where(
      and(
        eq(externalIdentities.userId, link.userId),
        eq(externalIdentities.provider, identity.provider),
        eq(externalIdentities.providerUserId, identity.providerUserId),
      ),
    );
  if (!linked) {
    await countFailure(deps, link.tokenHash);
    throw new DomainError(
      'forbidden',
      'restoration_identity_mismatch',
      "the provider's account is not the one of the link's member",
    );
  }
  await deps.db
    .update(accountRestorationLinks)
    .set({ provenAt: link.now })
    .where(eq(accountRestorationLinks.tokenHash, link.tokenHash));
  return restorationLinkNeeds(deps, token);
}

/**
 * The way back for a member whose death was confirmed by mistake: the mailed link and their
 * password (or a provider sign-in that proved the link) end the released case. (During the
 * grace period the member's sign-in alone cancels the case: no link is needed there.)
 * What was not sent yet is stopped; what was already delivered is answered, so the member
 * knows who received what. The administrators and everyone told of the death are told.
 */
export async function restoreAccount(
  deps: RestorationDeps,
  token: string,
  password: string | undefined,
): Promise<ServedOf<typeof accountRestoration>> {
  const link = await usableLink(deps, token);
  const { tokenHash, now } = link;
  if (password === undefined) {
    if (!link.proven) {
      throw new DomainError('invalid', 'validation_failed', 'a password or a provider proof', {
        errors: [{ field: 'password', code: 'required' }],
      });
    }
  } else if (!link.passwordHash || !(await verifyPassword(password, link.passwordHash))) {
    await countFailure(deps, tokenHash);
    throw new DomainError('invalid', 'validation_failed', 'the password is not right', {
      errors: [{ field: 'password', code: 'password_incorrect' }],
    });
  }
  const { userId, caseId } = link;

  const outcome = await deps.db.transaction(async (tx) => {
    const [spent] = await tx
      .update(accountRestorationLinks)
      .set({ usedAt: now })
      .where(
        and(
          eq(accountRestorationLinks.tokenHash, tokenHash),
          isNull(accountRestorationLinks.usedAt),
        ),
      )
      .returning({ userId: accountRestorationLinks.userId });
    if (!spent) throw linkInvalid();
    // The member's other links go with it: one restoration per case.
    await tx
      .update(accountRestorationLinks)
      .set({ usedAt: now })
      .where(
        and(eq(accountRestorationLinks.userId, userId), isNull(accountRestorationLinks.usedAt)),
      );
    const [closed] = await tx
      .select({ releasedAt: deathCases.releasedAt, dateOfDeath: deathCases.dateOfDeath })
      .from(deathCases)
      .where(and(eq(deathCases.id, caseId), eq(deathCases.state, 'released')))
      .for('update');
    if (!closed) return undefined;
    await tx
      .update(deathCases)
      .set({ state: 'cancelled', closedAt: now, closedBy: 'restored' })
      .where(eq(deathCases.id, caseId));
    await tx.update(deathSettings).set({ aliveAt: now }).where(eq(deathSettings.userId, userId));
    await tx.update(userDeaths).set({ deathConfirmedAt: null }).where(eq(userDeaths.id, userId));
    const mourningEnded = await turnPageBack(tx, userId, caseId, closed.dateOfDeath);
    // The member's choices for after their death, undone where they can be.
    const undone = await undoChoices(tx, { caseId, userId, mourningEnded }, now);
    // Letters given a due time by the release and not delivered yet wait again for a death.
    const stopped = await holdLettersOnRestoration({ db: tx }, userId);
    // Letter mails about the death still in the outbox are not sent after all.
    const mailsWithdrawn = await withdrawMailsAbout(tx, userId, now);
    const releasedAt = closed.releasedAt!;
    const delivered = await deliveredSince(tx, userId, releasedAt);
    const told = await tellTheyAreAlive(tx, deps, userId, delivered.notified, now);
    // The earlier alarms read as withdrawn, as a cancelled suspicion's do.
    await markSuspicionNoticesCancelled(tx, userId, now, ['death_suspected', 'death_confirmed']);
    await recordAudit(tx, {
      userId,
      caseId,
      action: 'restored',
      actorUserId: userId,
      detail: {
        by: password === undefined ? 'provider_and_mail' : 'password_and_mail',
        lettersStopped: stopped.length,
        mailsWithdrawn,
        lettersDelivered: delivered.letters.length,
        sectionsOpened: delivered.endingNoteSections.length,
        told,
        pageRestored: undone.page,
        accountDeletionCancelled: undone.accountDeletionCancelled,
        archiveWithdrawn: undone.archiveWithdrawn,
        archiveDownloaded: undone.archive !== null,
      },
      at: now,
    });
    return {
      restoredAt: now.toISOString(),
      releasedAt: releasedAt.toISOString(),
      lettersStopped: stopped.length,
      delivered: {
        letters: delivered.letters,
        endingNoteSections: delivered.endingNoteSections,
        notified: delivered.notified.map((person) => person.name),
        archive: undone.archive,
      },
      undone: {
        page: undone.page,
        accountDeletionCancelled: undone.accountDeletionCancelled,
        archiveWithdrawn: undone.archiveWithdrawn,
      },
    };
  });
  if (!outcome) {
    throw new DomainError('conflict', 'nothing_to_restore', 'the account is not memorialized');
  }
  return outcome;
}

/**
 * The mourning view ends; a date of death the release wrote into the page is emptied.
 * Answers whether the page was in mourning.
 */
async function turnPageBack(
  tx: Db,
  userId: string,
  caseId: string,
  dateOfDeath: string | null,
): Promise<boolean> {
  const [release] = await tx
    .select({ detail: deathAuditLog.detail })
    .from(deathAuditLog)
    .where(and(eq(deathAuditLog.caseId, caseId), eq(deathAuditLog.action, 'released')));
  const filled = release?.detail.deathDateFilled === true && dateOfDeath !== null;
  const turned = await queryRows<{ id: string }>(
    tx,
    sql`update memorial_pages set mourning_since = null,
      death_date = case when ${filled} and death_date = ${dateOfDeath}::date then null else death_date end
    where ${ownMemorialPage(userId)} and mourning_since is not null
    returning id`,
  );
  return turned.length > 0;
}

interface Person {
  id: string;
  name: string;
}

/** What cannot be taken back: letters delivered, note sections readers could open, who was told. */
async function deliveredSince(tx: Db, userId: string, releasedAt: Date) {
  const letterRows = await tx
    .select({
      letterId: timeCapsuleLetters.id,
      title: timeCapsuleLetters.title,
      deliveredAt: timeCapsuleLetters.deliveredAt,
      memberLastName: users.lastName,
      memberFirstName: users.firstName,
      guestLastName: timeCapsuleLetterRecipients.lastName,
      guestFirstName: timeCapsuleLetterRecipients.firstName,
    })
    .from(timeCapsuleLetters)
    .innerJoin(letterDeliveries, eq(letterDeliveries.letterId, timeCapsuleLetters.id))
    .innerJoin(
      timeCapsuleLetterRecipients,
      eq(timeCapsuleLetterRecipients.id, letterDeliveries.recipientId),
    )
    .leftJoin(users, eq(users.id, timeCapsuleLetterRecipients.userId))
    .where(
      and(
        eq(timeCapsuleLetters.senderUserId, userId),
        ne(timeCapsuleLetters.rule, 'date'),
        gte(timeCapsuleLetters.deliveredAt, releasedAt),
      ),
    )
    .orderBy(asc(timeCapsuleLetters.deliveredAt), asc(timeCapsuleLetterRecipients.position));
  const letters = new Map<string, { title: string; deliveredAt: string; recipients: string[] }>();
  for (const row of letterRows) {
    const entry = letters.get(row.letterId) ?? {
      title: row.title,
      deliveredAt: row.deliveredAt!.toISOString(),
      recipients: [],
    };
    entry.recipients.push(
      fullName({
        lastName: row.memberLastName ?? row.guestLastName ?? '',
        firstName: row.memberFirstName ?? row.guestFirstName ?? '',
      }),
    );
    letters.set(row.letterId, entry);
  }

  const sections = await tx
    .select({ section: endingNoteSections.section })
    .from(endingNoteSections)
    .where(
      and(
        eq(endingNoteSections.ownerUserId, userId),
        eq(endingNoteSections.visibility, 'readers_after_death'),
      ),
    )
    .orderBy(asc(endingNoteSections.section));
  const readers = await tx
    .select({ lastName: users.lastName, firstName: users.firstName })
    .from(endingNoteReaders)
    .innerJoin(users, eq(users.id, endingNoteReaders.readerUserId))
    .innerJoin(
      connections,
      and(
        eq(connections.userId, userId),
        eq(connections.otherUserId, endingNoteReaders.readerUserId),
      ),
    )
    .where(eq(endingNoteReaders.ownerUserId, userId))
    .orderBy(asc(users.lastName), asc(users.firstName));
  const readerNames = readers.map(fullName);

  return {
    letters: [...letters.values()],
    endingNoteSections:
      readerNames.length === 0
        ? []
        : sections.map(({ section }) => ({ section, readers: readerNames })),
    notified: await toldOfTheDeath(tx, userId, releasedAt),
  };
}

/** The people the release told (their `death_confirmed` notification about this member). */
async function toldOfTheDeath(tx: Db, userId: string, releasedAt: Date): Promise<Person[]> {
  const rows = await tx
    .selectDistinct({ id: users.id, lastName: users.lastName, firstName: users.firstName })
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.userId))
    .where(
      and(
        eq(notifications.kind, 'death_confirmed'),
        sql`${notifications.payload}->>'userId' = ${userId}`,
        gte(notifications.createdAt, releasedAt),
        eq(users.status, 'active'),
      ),
    )
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
  return rows.map((row) => ({ id: row.id, name: fullName(row) }));
}

/**
 * The administrators and everyone the release told get a `death_restored` notification (in
 * this transaction) and a mail; the member gets a mail that records it. Answers how many
 * people were told.
 */
async function tellTheyAreAlive(
  tx: Db,
  deps: RestorationDeps,
  userId: string,
  told: Person[],
  now: Date,
): Promise<number> {
  const [member] = await tx
    .select({
      email: users.email,
      lastName: users.lastName,
      firstName: users.firstName,
      memorialPageId: memorialPages.id,
    })
    .from(users)
    .leftJoin(memorialPages, ownMemorialPage())
    .where(eq(users.id, userId));
  if (!member) return 0;
  const name = fullName(member);
  const recipientIds = [
    ...new Set([...(await administratorsOf(tx, userId)), ...told.map((p) => p.id)]),
  ];
  const recipients =
    recipientIds.length === 0
      ? []
      : await tx
          .select({ id: users.id, email: users.email })
          .from(users)
          .where(and(inArray(users.id, recipientIds), eq(users.status, 'active')));
  const payload = { userId, memorialPageId: member.memorialPageId ?? '', name };
  for (const recipient of recipients)
    await notify(tx, recipient.id, 'death_restored', payload, now);
  const t = await deps.texts();
  const mails = recipients.map((recipient) => ({
    kind: 'death_restored',
    userId: recipient.id,
    ...restoredMailToConnection(t, recipient.email, name),
  }));
  mails.push({
    kind: 'account_restored',
    userId,
    ...restoredMailToMember(t, member.email, `${deps.publicUrl}/login`),
  });
  await enqueueMails(tx, mails, deps.clock);
  return recipients.length;
}
