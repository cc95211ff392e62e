import type { MailMessage } from '../../mail/mailer';
import type { Translate } from '../../../contract/rules/endingnote';

/** The date of an instant as Japanese read it, in Asia/Tokyo. */
export function tokyoDate(at: Date): string {
  return new Intl.DateTimeFormat('ja-JP', { timeZone: 'Asia/Tokyo', dateStyle: 'long' }).format(at);
}

/** A mail whose every text is a Fluent message: paragraphs, then the link, then the signature. */
export function mailOf(
  t: Translate,
  to: string,
  ids: { subject: string; paragraphs: string[]; after?: string[] },
  args: Record<string, string>,
  link?: string,
): MailMessage {
  const text = [
    ...ids.paragraphs.map((id) => t(id, args)),
    ...(link ? [link] : []),
    ...(ids.after ?? []).map((id) => t(id, args)),
    `--\n${t('mail-restoration-signature')}`,
  ].join('\n\n');
  return { to, subject: t(ids.subject, args), text, ...(link ? { link } : {}) };
}

/**
 * To a member who signed in after their release: what happened, and the way back: the
 * password again, or (signed in with a provider) that provider again.
 */
export function restorationLinkMail(
  t: Translate,
  to: string,
  link: string,
  releasedAt: Date,
  provider?: string,
) {
  const by = provider ? '-provider' : '';
  return mailOf(
    t,
    to,
    {
      subject: 'mail-restoration-link-subject',
      paragraphs: [`mail-restoration-link-what${by}`, `mail-restoration-link-how${by}`],
      after: ['mail-restoration-link-not-you'],
    },
    { date: tokyoDate(releasedAt), provider: provider ? t(`provider-${provider}`) : '' },
    link,
  );
}

/** To the member once restored: a record, and a word should it not have been them. */
export function restoredMailToMember(t: Translate, to: string, loginLink: string) {
  return mailOf(
    t,
    to,
    {
      subject: 'mail-restoration-done-subject',
      paragraphs: ['mail-restoration-done-body', 'mail-restoration-done-not-you'],
    },
    {},
    loginLink,
  );
}

/** To an administrator or a connection who was told of the death: it was a mistake. */
export function restoredMailToConnection(t: Translate, to: string, name: string) {
  return mailOf(
    t,
    to,
    {
      subject: 'mail-restoration-told-subject',
      paragraphs: ['mail-restoration-told-body'],
    },
    { name },
  );
}
