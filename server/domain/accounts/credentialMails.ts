import type { MailMessage } from '../../mail/mailer';

/** 24 hours for the link that confirms a new address. */
export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;

const SIGNATURE = '\n\n--\nShinobu（しのぶ）\nこのメールは送信専用です。';

/** The SPA screen that calls POST /v1/mypage/email/confirm. */
export function emailChangeLink(publicUrl: string, token: string): string {
  return `${publicUrl}/mypage/email-confirm?${new URLSearchParams({ token }).toString()}`;
}

/** To the new address: the link that makes it the account's address. */
export function emailChangeMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: '【しのぶ】新しいメールアドレスのご確認',
    text:
      'しのぶのメールアドレスをこのアドレスに変更するお申し込みを受け付けました。\n\n' +
      '下記のリンクを開くと変更が完了します。リンクの有効期限は24時間で、一度だけ使えます。\n\n' +
      `${link}\n\n` +
      'お心当たりがない場合は、このメールを破棄してください。メールアドレスは変更されません。' +
      SIGNATURE,
    link,
  };
}

/**
 * To the new address when it already belongs to an account: its holder learns of the attempt,
 * the member who asked learns nothing (their answer is the same as for a free address).
 */
export function emailChangeTakenMail(to: string, loginLink: string): MailMessage {
  return {
    to,
    subject: '【しのぶ】メールアドレス変更のお申し込みについて',
    text:
      'しのぶのメールアドレスをこのアドレスに変更するお申し込みがありましたが、' +
      'このアドレスはすでに別のアカウントで使われているため、変更できません。\n\n' +
      `このアドレスのアカウントへのログインはこちらから行えます。\n${loginLink}\n\n` +
      'お心当たりがない場合は、このメールを破棄してください。' +
      SIGNATURE,
    link: loginLink,
  };
}
