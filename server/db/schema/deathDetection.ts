import { sql } from 'drizzle-orm';
import { RELATIONSHIPS } from './connections';
import {
  bigserial,
  date,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './core';
import {
  ACCOUNT_AFTER_DEATH_VALUES,
  PAGE_AFTER_DEATH_VALUES,
} from '../../../contract/rules/deathDetection';
import { mailOutbox } from './mail';

/** Mirrors migrations/0060_death_detection.sql and 0063_death_administration.sql. */

export const CONFIRMATION_RULES = ['any_one', 'two'] as const;
export type ConfirmationRule = (typeof CONFIRMATION_RULES)[number];
export const IDENTITY_STATUSES = ['INITIAL', 'PROGRESS', 'ACTIVE', 'REVOKED'] as const;
export type IdentityStatusValue = (typeof IDENTITY_STATUSES)[number];
export const SIGNAL_SOURCES = [
  'certificate',
  'integration',
  'administrator',
  'inactivity',
] as const;
export type SignalSource = (typeof SIGNAL_SOURCES)[number];
export const CASE_STATES = ['suspected', 'grace', 'released', 'cancelled'] as const;
export type CaseState = (typeof CASE_STATES)[number];
export const DEVICE_PLATFORMS = ['ios', 'android'] as const;

/** users.death_confirmed_at (added by 0030): set when a death case is released. */
export const userDeaths = pgTable('users', {
  id: uuid('id').primaryKey(),
  deathConfirmedAt: timestamp('death_confirmed_at', { withTimezone: true }),
});

/** memorial_pages.mourning_since (0060): the member's own page shows its mourning view. */
export const memorialPageMourning = pgTable('memorial_pages', {
  id: uuid('id').primaryKey(),
  mourningSince: timestamp('mourning_since', { withTimezone: true }),
});

const ts = (name: string) => timestamp(name, { withTimezone: true });
const userRef = (name: string) => uuid(name).references(() => users.id, { onDelete: 'cascade' });

export const deathSettings = pgTable('death_settings', {
  userId: userRef('user_id').primaryKey(),
  rule: text('rule', { enum: CONFIRMATION_RULES }).notNull().default('any_one'),
  checkInPeriodDays: integer('check_in_period_days'),
  aliveAt: ts('alive_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
  // 0120: what the member chose for after their death (docs/after-death.md).
  pageAfterDeath: text('page_after_death', { enum: PAGE_AFTER_DEATH_VALUES })
    .notNull()
    .default('mourning'),
  accountAfterDeath: text('account_after_death', { enum: ACCOUNT_AFTER_DEATH_VALUES })
    .notNull()
    .default('memorial'),
  deleteAfterDays: integer('delete_after_days'),
  archiveRecipientUserId: uuid('archive_recipient_user_id').references(() => users.id, {
    onDelete: 'set null',
  }),
});

export const deathAdministrators = pgTable(
  'death_administrators',
  {
    userId: userRef('user_id').notNull(),
    administratorUserId: userRef('administrator_user_id').notNull(),
    createdAt: ts('created_at').notNull(),
    /** 0063: when the administrator accepted being named; null until they do. */
    acceptedAt: ts('accepted_at'),
  },
  (table) => [primaryKey({ columns: [table.userId, table.administratorUserId] })],
);

export const identityVerifications = pgTable('identity_verifications', {
  userId: userRef('user_id').primaryKey(),
  status: text('status', { enum: IDENTITY_STATUSES }).notNull(),
  progressUntil: ts('progress_until'),
  certificatePem: text('certificate_pem'),
  fingerprint: text('fingerprint'),
  serialNumber: text('serial_number'),
  subjectEmail: text('subject_email'),
  notAfter: ts('not_after'),
  revokedReason: text('revoked_reason', { enum: ['expired', 'revoked'] }),
  revokedAt: ts('revoked_at'),
  verifiedAt: ts('verified_at'),
  updatedAt: ts('updated_at').notNull(),
});

export const identityChallenges = pgTable('identity_challenges', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  userId: userRef('user_id').notNull(),
  purpose: text('purpose', { enum: ['registration', 'death_confirmation'] }).notNull(),
  content: text('content').notNull(),
  subjectUserId: userRef('subject_user_id'),
  dateOfDeath: date('date_of_death', { mode: 'string' }),
  relationship: text('relationship'),
  createdAt: ts('created_at').notNull(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
});

export const deathCases = pgTable('death_cases', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  userId: userRef('user_id').notNull(),
  state: text('state', { enum: CASE_STATES }).notNull(),
  openedAt: ts('opened_at').notNull(),
  graceEndsAt: ts('grace_ends_at'),
  releasedAt: ts('released_at'),
  closedAt: ts('closed_at'),
  closedBy: text('closed_by'),
  dateOfDeath: date('date_of_death', { mode: 'string' }),
  // 0120: the day a member who chose deletion is deleted, and when it was done.
  accountDeletionDueAt: ts('account_deletion_due_at'),
  accountDeletedAt: ts('account_deleted_at'),
});

export const deathSignals = pgTable('death_signals', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  caseId: uuid('case_id')
    .notNull()
    .references(() => deathCases.id, { onDelete: 'cascade' }),
  source: text('source', { enum: SIGNAL_SOURCES }).notNull(),
  reporterUserId: uuid('reporter_user_id').references(() => users.id, { onDelete: 'set null' }),
  clientId: text('client_id'),
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: ts('created_at').notNull(),
});

export const deathConfirmations = pgTable('death_confirmations', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  caseId: uuid('case_id')
    .notNull()
    .references(() => deathCases.id, { onDelete: 'cascade' }),
  administratorUserId: userRef('administrator_user_id').notNull(),
  dateOfDeath: date('date_of_death', { mode: 'string' }).notNull(),
  relationship: text('relationship', { enum: RELATIONSHIPS }).notNull(),
  signTag: uuid('sign_tag').notNull(),
  signContent: text('sign_content').notNull(),
  signature: text('signature').notNull(),
  certificateFingerprint: text('certificate_fingerprint').notNull(),
  createdAt: ts('created_at').notNull(),
});

export const deathAuditLog = pgTable('death_audit_log', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  seq: bigserial('seq', { mode: 'number' }).notNull(),
  userId: userRef('user_id').notNull(),
  caseId: uuid('case_id').references(() => deathCases.id, { onDelete: 'set null' }),
  action: text('action').notNull(),
  actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
  source: text('source', { enum: SIGNAL_SOURCES }),
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: ts('created_at').notNull(),
});

export const fposLinks = pgTable(
  'fpos_links',
  {
    clientId: text('client_id').notNull(),
    fposUserId: text('fpos_user_id').notNull(),
    userId: userRef('user_id').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.clientId, table.fposUserId] })],
);

export const deathCheckIns = pgTable('death_check_ins', {
  tokenHash: text('token_hash').primaryKey(),
  userId: userRef('user_id').notNull(),
  sentAt: ts('sent_at').notNull(),
  answerBy: ts('answer_by').notNull(),
  answeredAt: ts('answered_at'),
  escalatedAt: ts('escalated_at'),
  mailId: uuid('mail_id').references(() => mailOutbox.id, { onDelete: 'set null' }),
});

export const deviceTokens = pgTable('device_tokens', {
  token: text('token').primaryKey(),
  userId: userRef('user_id').notNull(),
  platform: text('platform', { enum: DEVICE_PLATFORMS }).notNull(),
  createdAt: ts('created_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
});

/** Mirrors migrations/0094_account_restoration.sql: the mailed links that undo a release. */
export const accountRestorationLinks = pgTable('account_restoration_links', {
  tokenHash: text('token_hash').primaryKey(),
  userId: userRef('user_id').notNull(),
  caseId: uuid('case_id')
    .notNull()
    .references(() => deathCases.id, { onDelete: 'cascade' }),
  createdAt: ts('created_at').notNull(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  /** When the member proved themselves with a provider they sign in with (migration 0098). */
  provenAt: ts('proven_at'),
});
