import type { PersonName } from '../../../contract/timecapsule';
import type { Translate } from '../../../contract/rules/endingnote';

export interface LetterMailInput {
  publicUrl: string;
  letterId: string;
  title: string;
  sender: PersonName;
  recipient: PersonName;
  /** Set for someone not yet a member: their link claims the letter after login. */
  claimToken: string | undefined;
  /** Opens the "report this mail" page for this one mail. */
  reportToken: string;
  dueAt: Date;
  late: boolean;
}

export interface LetterMail {
  subject: string;
  text: string;
  link: string;
}

const japanTime = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  dateStyle: 'long',
  timeStyle: 'short',
});

/** The longest member-written text a mail repeats; the rest is cut with an ellipsis. */
const QUOTED_TEXT_MAX_CHARS = 60;

/** Control, direction and invisible characters, which could make quoted text read otherwise. */
const HIDDEN_CONTROLS = /[\p{Cc}\p{Cf}]/gu;

/** ASCII marks that let a mail client see an address or a link, and their full-width twins. */
const LINK_MARKS: Record<string, string> = { '.': '．', ':': '：', '/': '／', '@': '＠' };

/**
 * Text a member wrote (a name, a letter's title), made safe to repeat in a mail to someone
 * else: one line, no hidden controls, no quotation mark that could close the quote around
 * it, and no `.`, `:`, `/` or `@` a mail client could turn into a link or an address.
 */
export function quotedMemberText(text: string): string {
  const line = text
    .replace(/\s+/g, ' ')
    .replace(HIDDEN_CONTROLS, '')
    .trim()
    .replace(/[.:/@]/g, (mark) => LINK_MARKS[mark]!)
    .replace(/「/g, '『')
    .replace(/」/g, '』');
  const chars = [...line];
  return chars.length > QUOTED_TEXT_MAX_CHARS
    ? `${chars.slice(0, QUOTED_TEXT_MAX_CHARS).join('')}…`
    : line;
}

const fullName = (name: PersonName) =>
  quotedMemberText(`${name.lastName} ${name.firstName}`.trim());

/** Where a letter is read: members go straight to it; a non-member's link claims it first. */
export function letterLink(publicUrl: string, letterId: string, claimToken?: string): string {
  return claimToken
    ? `${publicUrl}/timecapsule/claim?token=${encodeURIComponent(claimToken)}`
    : `${publicUrl}/timecapsule/letters/${letterId}`;
}

/** The page where the receiver of a mail a member caused can report it (server/routes/mailReports.ts). */
export function mailReportLink(publicUrl: string, reportToken: string): string {
  return `${publicUrl}/mail-report?token=${encodeURIComponent(reportToken)}`;
}

/**
 * The mail that tells a recipient a letter has arrived (and, if so, that it is late). It says
 * that a member wrote the letter and that Shinobu did not check their words, repeats those
 * words only quoted (`quotedMemberText`), and ends with the link that reports the mail.
 */
export function letterMail(t: Translate, input: LetterMailInput): LetterMail {
  const link = letterLink(input.publicUrl, input.letterId, input.claimToken);
  const sender = fullName(input.sender);
  const lines = [
    t('letter-mail-greeting', { recipient: fullName(input.recipient) }),
    '',
    t('letter-mail-arrived', { sender }),
    t('letter-mail-title', { title: quotedMemberText(input.title) }),
    ...(input.late ? [t('letter-mail-late', { dueAt: japanTime.format(input.dueAt) })] : []),
    '',
    t('letter-mail-read'),
    link,
    ...(input.claimToken ? ['', t('letter-mail-claim')] : []),
    '',
    '--',
    t('letter-mail-label'),
    t('letter-mail-report'),
    mailReportLink(input.publicUrl, input.reportToken),
    '',
    t('letter-mail-signature'),
  ];
  return { subject: t('letter-mail-subject', { sender }), text: lines.join('\n'), link };
}
