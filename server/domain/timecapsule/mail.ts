import type { PersonName } from '../../../src/contract/timecapsule';

export interface LetterMailInput {
  publicUrl: string;
  letterId: string;
  title: string;
  sender: PersonName;
  recipient: PersonName;
  /** Set for someone not yet a member: their link claims the letter after login. */
  claimToken: string | undefined;
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

const fullName = (name: PersonName) => `${name.lastName} ${name.firstName}`.trim();

/** Where a letter is read: members go straight to it; a non-member's link claims it first. */
export function letterLink(publicUrl: string, letterId: string, claimToken?: string): string {
  return claimToken
    ? `${publicUrl}/timecapsule/claim?token=${encodeURIComponent(claimToken)}`
    : `${publicUrl}/timecapsule/letters/${letterId}`;
}

/** The mail that tells a recipient a letter has arrived (and, if so, that it is late). */
export function letterMail(input: LetterMailInput): LetterMail {
  const link = letterLink(input.publicUrl, input.letterId, input.claimToken);
  const senderName = fullName(input.sender);
  const lines = [
    `${fullName(input.recipient)} 様`,
    '',
    `${senderName}さんからのタイムカプセルの手紙「${input.title}」が届きました。`,
    ...(input.late
      ? [
          `お届け予定の${japanTime.format(input.dueAt)}より遅れてのお届けとなりました。申し訳ございません。`,
        ]
      : []),
    '',
    '次のリンクから手紙をお読みいただけます。',
    link,
    ...(input.claimToken
      ? [
          '',
          'Shinobu の会員登録（またはログイン）のあとで手紙が開きます。',
          'このメールアドレスで登録・ログインしてください。',
        ]
      : []),
    '',
    'Shinobu',
  ];
  return {
    subject: `${senderName}さんからタイムカプセルの手紙が届きました`,
    text: lines.join('\n'),
    link,
  };
}
