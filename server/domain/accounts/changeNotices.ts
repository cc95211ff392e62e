import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { and, eq, ne, sql } from 'drizzle-orm';
import { changeReports, users } from '../../db/schema';
import { DomainError } from '../errors';
import type { Db } from '../../db/database';
import type { MailMessage } from '../../mail/mailer';
import { enqueueMail } from '../../mail/outbox';
import { signingKey } from '../accessTokens';
import type { AccountDeps } from './accountDeps';
import { normalizeEmail } from './accountDeps';
import { revokeAllOfUser } from './refreshTokens';

/** The changes that need a fresh proof and are told to the member by mail. */
export const SENSITIVE_CHANGES = [
  'death_settings',
  'note_readers',
  'note_visibility',
  'email',
  'password',
  'account_deleted',
] as const;
export type SensitiveChange = (typeof SENSITIVE_CHANGES)[number];

const CHANGE_NAMES: Record<SensitiveChange, string> = {
  death_settings: '死亡確認の管理者、または死亡確認に必要な人数',
  note_readers: 'エンディングノートを読める方',
  note_visibility: 'エンディングノートの項目の公開範囲',
  email: 'ログイン用のメールアドレス',
  password: 'パスワード',
  account_deleted: 'アカウントの解約',
};

/** A report link works this long: long enough for a member who reads mail rarely. */
export const CHANGE_REPORT_TTL_SECONDS = 30 * 24 * 60 * 60;
const PURPOSE = 'change-report';
const SIGNATURE = '\n\n--\nShinobu（しのぶ）\nこのメールは送信専用です。';

interface ReportClaims {
  userId: string;
  change: SensitiveChange;
  changedAt: Date;
  /** For an e-mail change: the address the report puts back. */
  restoreEmail?: string;
}

async function reportToken(deps: AccountDeps, claims: ReportClaims): Promise<string> {
  const changedAt = Math.floor(claims.changedAt.getTime() / 1000);
  return new SignJWT({
    change: claims.change,
    ...(claims.restoreEmail ? { restore_email: claims.restoreEmail } : {}),
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.userId)
    .setIssuedAt(changedAt)
    .setExpirationTime(changedAt + CHANGE_REPORT_TTL_SECONDS)
    .sign(signingKey(deps.authSecret, PURPOSE));
}

async function openReportToken(
  deps: AccountDeps,
  token: string,
): Promise<ReportClaims | undefined> {
  try {
    const { payload } = await jwtVerify(token, signingKey(deps.authSecret, PURPOSE), {
      algorithms: ['HS256'],
      currentDate: deps.clock.now(),
    });
    const change = SENSITIVE_CHANGES.find((known) => known === payload.change);
    if (!payload.sub || !change || typeof payload.iat !== 'number') return undefined;
    return {
      userId: payload.sub,
      change,
      changedAt: new Date(payload.iat * 1000),
      restoreEmail: typeof payload.restore_email === 'string' ? payload.restore_email : undefined,
    };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return undefined;
    throw error;
  }
}

/** The SPA screen that shows what the link reports and calls POST /v1/account/change_report. */
export function changeReportLink(publicUrl: string, token: string): string {
  return `${publicUrl}/mypage/change-report?${new URLSearchParams({ token }).toString()}`;
}

export function changeNoticeMail(
  to: string,
  change: SensitiveChange,
  link: string,
  detail?: string,
): MailMessage {
  const undo =
    change === 'email'
      ? '報告すると、メールアドレスは元のこのアドレスに戻り、すべての端末でログアウトします。'
      : '報告すると、すべての端末でログアウトします。';
  return {
    to,
    subject: '【しのぶ】アカウントの大切な設定が変更されました',
    text:
      `しのぶのアカウントで、次の設定が変更されました。\n\n  ${CHANGE_NAMES[change]}\n` +
      (detail ? `  ${detail}\n` : '') +
      '\n' +
      'ご自身で変更された場合は、このメールへの対応は不要です。\n\n' +
      `お心当たりがない場合は、下記のリンクから「自分ではない」とご報告ください。${undo}` +
      'その後、パスワードの再設定をお願いします。リンクの有効期限は30日です。\n\n' +
      `${link}` +
      SIGNATURE,
    link,
  };
}

/**
 * Tells the member at `to` that `change` was made, with a signed link to report it. The mail
 * goes through the outbox in `db`: the transaction of the change, where there is one.
 */
export async function notifySensitiveChange(
  deps: AccountDeps,
  notice: {
    userId: string;
    to: string;
    change: SensitiveChange;
    /** A line under the change's name, e.g. the new address. */
    detail?: string;
    restoreEmail?: string;
  },
  db: Db = deps.db,
): Promise<void> {
  const token = await reportToken(deps, { ...notice, changedAt: deps.clock.now() });
  const link = changeReportLink(deps.publicUrl, token);
  await enqueueMail(
    db,
    {
      kind: 'change_notice',
      userId: notice.userId,
      ...changeNoticeMail(notice.to, notice.change, link, notice.detail),
    },
    deps.clock,
  );
}

const invalidReport = () =>
  new DomainError(
    'link_invalid',
    'change_report_invalid',
    'the report link is expired or not genuine',
  );

/**
 * POST /v1/account/change_report: "this was not me". Records the report, ends every session
 * of the member (refresh tokens revoked) and, for an e-mail change, puts the old address back
 * unless it has found another account meanwhile. The link proves the mailbox it was sent to,
 * so no sign-in is needed; using it twice changes nothing more.
 */
export async function reportChange(
  deps: AccountDeps,
  token: string,
): Promise<{ change: SensitiveChange; emailRestored: boolean }> {
  const claims = await openReportToken(deps, token);
  if (!claims) throw invalidReport();
  const now = deps.clock.now();
  await revokeAllOfUser(deps.db, claims.userId, deps.clock);
  let emailRestored = false;
  const restore = claims.restoreEmail;
  if (restore) {
    const [holder] = await deps.db
      .select({ id: users.id })
      .from(users)
      .where(
        and(sql`lower(${users.email}) = ${normalizeEmail(restore)}`, ne(users.status, 'deleted')),
      )
      .limit(1);
    if (!holder || holder.id === claims.userId) {
      const restored = await deps.db
        .update(users)
        .set({ email: restore, updatedAt: now })
        .where(and(eq(users.id, claims.userId), eq(users.status, 'active')))
        .returning({ id: users.id });
      emailRestored = restored.length > 0;
    }
  }
  await deps.db.insert(changeReports).values({
    userId: claims.userId,
    change: claims.change,
    changedAt: claims.changedAt,
    reportedAt: now,
  });
  deps.log.error({ userId: claims.userId, change: claims.change }, 'member reported a change');
  return { change: claims.change, emailRestored };
}
