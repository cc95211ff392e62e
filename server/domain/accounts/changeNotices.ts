import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { changeNotices, changeReports, users } from '../../db/schema';
import { DomainError } from '../errors';
import type { Db } from '../../db/database';
import type { MailMessage } from '../../mail/mailer';
import { enqueueMail } from '../../mail/outbox';
import type { AccountDeps } from './accountDeps';
import { normalizeEmail } from './accountDeps';
import { revokeAllOfUser } from './refreshTokens';
import { hashSecretToken, newSecretToken } from './secretTokens';
import { withdrawExports } from '../dataExport/requests';

/** The changes that need a fresh proof and are told to the member by mail. */
export const SENSITIVE_CHANGES = [
  'death_settings',
  'after_death',
  'note_readers',
  'note_visibility',
  'email',
  'password',
  'account_deleted',
  'data_export',
] as const;
export type SensitiveChange = (typeof SENSITIVE_CHANGES)[number];

const CHANGE_NAMES: Record<SensitiveChange, string> = {
  death_settings: '見守り役と確認の設定（見守り役、またはご逝去の確認に必要な人数）',
  after_death: 'ご逝去のあとの追悼ページ・アカウント・データの扱い',
  note_readers: 'エンディングノートを読める方',
  note_visibility: 'エンディングノートの項目の公開範囲',
  email: 'ログイン用のメールアドレス',
  password: 'パスワード',
  account_deleted: 'アカウントの解約',
  data_export: 'すべてのデータの書き出し（ZIP ファイルの作成）のお申し込み',
};

/** A report link works this long: long enough for a member who reads mail rarely. */
export const CHANGE_REPORT_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const SIGNATURE = '\n\n--\nShinobu（しのぶ）\nこのメールは送信専用です。';

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
      : change === 'data_export'
        ? '報告すると、書き出したデータは削除されてダウンロードできなくなり、すべての端末でログアウトします。'
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
      'その後、パスワードの再設定をお願いします。リンクの有効期限は30日で、一度だけ使えます。' +
      'この変更のあとに別の変更があった場合は、このリンクでは報告できません。\n\n' +
      `${link}` +
      SIGNATURE,
    link,
  };
}

/**
 * Tells the member at `to` that `change` was made, with a single-use link to report it. The
 * notice and its mail go through `db`: the transaction of the change, where there is one.
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
  const token = newSecretToken();
  const now = deps.clock.now();
  await db.insert(changeNotices).values({
    tokenHash: hashSecretToken(token),
    userId: notice.userId,
    change: notice.change,
    restoreEmail: notice.restoreEmail ?? null,
    changedAt: now,
    expiresAt: new Date(now.getTime() + CHANGE_REPORT_TTL_MS),
  });
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

/** Sent when a report was taken, to the member's address (and to the one it replaced). */
export function changeReportedMail(
  to: string,
  change: SensitiveChange,
  restoredEmail: string | undefined,
  resetLink: string,
): MailMessage {
  return {
    to,
    subject: '【しのぶ】「自分ではない」とのご報告を受け付けました',
    text:
      `しのぶのアカウントで行われた次の変更について、「自分ではない」とのご報告を受け付けました。\n\n  ${CHANGE_NAMES[change]}\n\n` +
      'すべての端末でログアウトしました。' +
      (restoredEmail ? `ログイン用のメールアドレスは ${restoredEmail} に戻しました。` : '') +
      '\n\n' +
      `下記のリンクから、パスワードの再設定をお願いします。\n${resetLink}\n\n` +
      'このご報告にお心当たりがない場合は、パスワードを再設定したうえで、サポートまでお問い合わせください。' +
      SIGNATURE,
    link: resetLink,
  };
}

const invalidReport = () =>
  new DomainError(
    'link_invalid',
    'change_report_invalid',
    'the report link is used, expired or not genuine',
  );

const supersededReport = () =>
  new DomainError(
    'conflict',
    'change_report_superseded',
    'a later change was made after the reported one; sign in or reset the password instead',
  );

/**
 * POST /v1/account/change_report: "this was not me". One conditional UPDATE spends the link,
 * and only while its change is still the member's latest: a former mailbox cannot undo what
 * the member did since. Records the report, ends every session of the member (refresh tokens
 * revoked), for an e-mail change puts the old address back unless it has found another
 * account meanwhile, and mails the member that the report was taken.
 */
export async function reportChange(
  deps: AccountDeps,
  token: string,
): Promise<{ change: SensitiveChange; emailRestored: boolean }> {
  const now = deps.clock.now();
  const tokenHash = hashSecretToken(token);
  const noLaterChange = sql`not exists (select 1 from ${changeNotices} later where later.user_id = ${changeNotices.userId} and later.id > ${changeNotices.id})`;
  const [notice] = await deps.db
    .update(changeNotices)
    .set({ usedAt: now })
    .where(
      and(
        eq(changeNotices.tokenHash, tokenHash),
        isNull(changeNotices.usedAt),
        gt(changeNotices.expiresAt, now),
        noLaterChange,
      ),
    )
    .returning({
      userId: changeNotices.userId,
      change: changeNotices.change,
      changedAt: changeNotices.changedAt,
      restoreEmail: changeNotices.restoreEmail,
    });
  if (!notice) {
    const [usable] = await deps.db
      .select({ id: changeNotices.id })
      .from(changeNotices)
      .where(
        and(
          eq(changeNotices.tokenHash, tokenHash),
          isNull(changeNotices.usedAt),
          gt(changeNotices.expiresAt, now),
        ),
      );
    throw usable ? supersededReport() : invalidReport();
  }
  const change = SENSITIVE_CHANGES.find((known) => known === notice.change)!;
  await revokeAllOfUser(deps.db, notice.userId, deps.clock);
  if (change === 'data_export') await withdrawExports(deps.db, notice.userId, now);
  const [member] = await deps.db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.id, notice.userId), eq(users.status, 'active')));
  let emailRestored = false;
  const restore = notice.restoreEmail;
  if (restore && member) {
    const [holder] = await deps.db
      .select({ id: users.id })
      .from(users)
      .where(
        and(sql`lower(${users.email}) = ${normalizeEmail(restore)}`, ne(users.status, 'deleted')),
      )
      .limit(1);
    if (!holder || holder.id === notice.userId) {
      const restored = await deps.db
        .update(users)
        .set({ email: restore, updatedAt: now })
        .where(and(eq(users.id, notice.userId), eq(users.status, 'active')))
        .returning({ id: users.id });
      emailRestored = restored.length > 0;
    }
  }
  await deps.db.transaction(async (tx) => {
    await tx.insert(changeReports).values({
      userId: notice.userId,
      change,
      changedAt: notice.changedAt,
      reportedAt: now,
    });
    if (!member) return;
    const resetLink = `${deps.publicUrl}/password-reset`;
    const addresses = emailRestored ? [restore!, member.email] : [member.email];
    for (const to of new Set(addresses)) {
      const mail = changeReportedMail(to, change, emailRestored ? restore! : undefined, resetLink);
      await enqueueMail(tx, { kind: 'change_report', userId: notice.userId, ...mail }, deps.clock);
    }
  });
  deps.log.error({ userId: notice.userId, change }, 'member reported a change');
  return { change, emailRestored };
}
