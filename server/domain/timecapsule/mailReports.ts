import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { letterDeliveries, mailOutbox, mailReports, timeCapsuleLetters } from '../../db/schema';
import { hashSecretToken } from '../accounts/secretTokens';
import type { TimecapsuleDeps } from './timecapsuleDeps';

export interface ReportedMail {
  mailId: string;
  letterId: string | null;
  senderUserId: string | null;
  /** False when the mail had been reported before: nothing more was recorded. */
  firstReport: boolean;
}

/** The mail whose report link carries `token`, or undefined for a token no mail carries. */
async function mailOfReportToken(db: Db, token: string) {
  const [mail] = await db
    .select({
      mailId: mailOutbox.id,
      kind: mailOutbox.kind,
      toEmail: mailOutbox.toEmail,
      letterId: letterDeliveries.letterId,
      senderUserId: timeCapsuleLetters.senderUserId,
    })
    .from(mailOutbox)
    .leftJoin(letterDeliveries, eq(letterDeliveries.id, mailOutbox.deliveryId))
    .leftJoin(timeCapsuleLetters, eq(timeCapsuleLetters.id, letterDeliveries.letterId))
    .where(eq(mailOutbox.reportTokenHash, hashSecretToken(token)));
  return mail;
}

/** True when `token` is a mail's report token (the report page offers its button then). */
export async function isMailReportToken(
  { db }: Pick<TimecapsuleDeps, 'db'>,
  token: string,
): Promise<boolean> {
  return (await mailOfReportToken(db, token)) !== undefined;
}

/**
 * "Report this mail": records the report of the mail `token` was made for, once however often
 * it is sent, with who caused the mail, for the operators (docs/operations.md).
 */
export async function reportMail(
  { db, clock }: TimecapsuleDeps,
  token: string,
): Promise<ReportedMail | undefined> {
  const mail = await mailOfReportToken(db, token);
  if (!mail) return undefined;
  const recorded = await db
    .insert(mailReports)
    .values({ ...mail, reportedAt: clock.now() })
    .onConflictDoNothing({ target: mailReports.mailId })
    .returning({ mailId: mailReports.mailId });
  return {
    mailId: mail.mailId,
    letterId: mail.letterId,
    senderUserId: mail.senderUserId,
    firstReport: recorded.length > 0,
  };
}
