import type { MailMessage } from '../../mail/mailer';

const SIGNATURE = '\n\n--\nShinobu（しのぶ）\nこのメールは送信専用です。';

/** Names are shown family name first (glossary). */
export function fullName(person: { lastName: string; firstName: string }): string {
  return `${person.lastName} ${person.firstName}`.trim();
}

/** To the member: something suggested they may have died; signing in clears it. */
export function suspicionMailToMember(to: string, loginLink: string): MailMessage {
  return {
    to,
    subject: '【しのぶ】ご無事を確認させてください',
    text:
      'あなたのアカウントについて、ご逝去の可能性を示すお知らせを受け取りました。\n\n' +
      'お元気でいらっしゃいましたら、下記からログインしてください。ログインするだけで取り消されます。\n\n' +
      `${loginLink}\n\n` +
      'ご家族による確認が行われても、一定の期間内にログインされれば、何も公開されません。' +
      SIGNATURE,
    link: loginLink,
  };
}

/** To an administrator: a member they look after may have died. */
export function suspicionMailToAdministrator(to: string, name: string, link: string): MailMessage {
  return {
    to,
    subject: `【しのぶ】${name}様についてのお知らせ`,
    text:
      `あなたを見守り役として登録している${name}様について、ご逝去の可能性を示すお知らせがありました。\n\n` +
      'アプリからご確認いただけます。ご本人がログインされた場合は自動的に取り消されます。\n\n' +
      `${link}` +
      SIGNATURE,
    link,
  };
}

/** To a connection the member named as one of their death administrators. */
export function administratorNamedMail(to: string, name: string, link: string): MailMessage {
  return {
    to,
    subject: `【しのぶ】${name}様があなたを見守り役に選びました`,
    text:
      `${name}様が、万一のときにご逝去を確認する見守り役としてあなたを選びました。\n\n` +
      '下記から内容をご確認のうえ、お引き受けください。ご逝去の可能性があるときは、あなたに' +
      'お知らせが届き、アプリから確認を行えます。\n\n' +
      `${link}` +
      SIGNATURE,
    link,
  };
}

/** To an administrator: the member signed in, so the suspicion or confirmation is void. */
export function cancelledMailToAdministrator(to: string, name: string): MailMessage {
  return {
    to,
    subject: `【しのぶ】${name}様のご無事が確認されました`,
    text:
      `${name}様ご本人のログインが確認されたため、ご逝去に関するお知らせと確認はすべて取り消されました。` +
      SIGNATURE,
  };
}

/** Inactivity check-in: the member chose to be asked after a period without sign-in. */
export function checkInMail(to: string, link: string, answerDays: number): MailMessage {
  return {
    to,
    subject: '【しのぶ】お変わりありませんか',
    text:
      'しばらくログインがありませんでしたので、ご様子をうかがうメールをお送りしました。\n\n' +
      `お変わりなければ、${answerDays}日以内に下記のリンクを開き、ボタンを押してください（ログインしていただくことでも構いません）。\n\n` +
      `${link}\n\n` +
      'お返事がない場合は、あなたが登録した見守り役の方にお知らせします。' +
      SIGNATURE,
    link,
  };
}

/** To the member: administrators confirmed their death; signing in still undoes it. */
export function graceStartedMailToMember(
  to: string,
  loginLink: string,
  graceEndsAt: Date,
): MailMessage {
  const until = new Intl.DateTimeFormat('ja-JP', {
    timeZone: 'Asia/Tokyo',
    dateStyle: 'long',
    timeStyle: 'short',
  }).format(graceEndsAt);
  return {
    to,
    subject: '【しのぶ】見守り役の方がご逝去を確認しました',
    text:
      '見守り役の方が、あなたのご逝去を確認しました。\n\n' +
      `お元気でいらっしゃいましたら、${until}までに下記からログインしてください。ログインすると確認はすべて取り消され、何も公開されません。\n\n` +
      `${loginLink}` +
      SIGNATURE,
    link: loginLink,
  };
}

const CHECK_IN_TEXT = {
  ask: {
    title: 'ご様子の確認',
    body: 'お変わりなければ、下のボタンを押してください。',
  },
  answered: {
    title: 'ありがとうございました',
    body: 'お返事を受け付けました。これからもしのぶをよろしくお願いいたします。',
  },
  closed: {
    title: 'このリンクは使えません',
    body: 'お返事済みか、期限が過ぎています。ログインしていただくと、ご無事であることが伝わります。',
  },
} as const;

/** The small page behind a check-in link (no SPA needed): ask, answered or closed. */
export function checkInPage(kind: keyof typeof CHECK_IN_TEXT, token: string): string {
  const text = CHECK_IN_TEXT[kind];
  const button =
    kind === 'ask'
      ? `<form method="post" action="/v1/fpos/check_in/${encodeURIComponent(token)}"><button type="submit">元気です</button></form>`
      : '<p><a href="/login">ログイン</a></p>';
  return `<!doctype html><html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${text.title} | しのぶ</title></head><body><main><h1>${text.title}</h1><p>${text.body}</p>${button}</main></body></html>`;
}
