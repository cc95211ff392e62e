import type { MailMessage } from '../../mail/mailer';

/** 24 hours for activation links, 1 hour for password-reset links. */
export const ACTIVATION_TTL_MS = 24 * 60 * 60 * 1000;
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;

/**
 * The SPA screen that activates the registration. A registration through a provider names it,
 * so that the screen offers that provider's sign-in, which completes it.
 */
export function activationLink(
  publicUrl: string,
  token: string,
  email: string,
  provider?: string,
): string {
  const query = new URLSearchParams({ token, email, ...(provider ? { provider } : {}) });
  return `${publicUrl}/activate?${query.toString()}`;
}

/** The SPA screen that asks for the new password and calls POST /v1/password_reset/confirm. */
export function passwordResetLink(publicUrl: string, token: string): string {
  return `${publicUrl}/password-reset?${new URLSearchParams({ token }).toString()}`;
}

const SIGNATURE = '\n\n--\nShinobu（しのぶ）\nこのメールは送信専用です。';

export function activationMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: '【しのぶ】メールアドレスのご確認',
    text:
      'しのぶへのご登録ありがとうございます。\n\n' +
      '下記のリンクを開いて、登録を完了してください。リンクの有効期限は24時間で、一度だけ使えます。\n\n' +
      `${link}\n\n` +
      'お心当たりがない場合は、このメールを破棄してください。' +
      SIGNATURE,
    link,
  };
}

/** Sent instead of an activation link when the address already has an account. */
export function alreadyRegisteredMail(
  to: string,
  loginLink: string,
  resetLink: string,
): MailMessage {
  return {
    to,
    subject: '【しのぶ】ご登録済みのメールアドレスです',
    text:
      'このメールアドレスで新規登録のお申し込みがありましたが、すでにご登録いただいています。\n\n' +
      `ログインはこちらから行えます。\n${loginLink}\n\n` +
      `パスワードをお忘れの場合は、こちらから再設定してください。\n${resetLink}\n\n` +
      'お心当たりがない場合は、このメールを破棄してください。' +
      SIGNATURE,
    link: loginLink,
  };
}

export function passwordResetMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: '【しのぶ】パスワードの再設定',
    text:
      'パスワード再設定のお申し込みを受け付けました。\n\n' +
      '下記のリンクを開いて、新しいパスワードを設定してください。リンクの有効期限は1時間で、一度だけ使えます。\n\n' +
      `${link}\n\n` +
      'お心当たりがない場合は、このメールを破棄してください。パスワードは変更されません。' +
      SIGNATURE,
    link,
  };
}

/** The login screen, opened with the token that lets a sign-in past the account's lock. */
export function unlockLink(publicUrl: string, token: string): string {
  return `${publicUrl}/login?${new URLSearchParams({ unlock: token }).toString()}`;
}

export function unlockMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: '【しのぶ】ログインの一時停止とロック解除のご案内',
    text:
      'お使いのアカウントに、誤ったパスワードによるログインが繰り返し試みられたため、ログインを一時的に停止しています。\n\n' +
      'ご本人のログインは、下記のリンクから開いたログイン画面で行えます。このリンクでは、停止中でもログインできます。' +
      'リンクは一度だけ使え、有効期限は停止が終わるまで（最長1時間）です。\n\n' +
      `${link}\n\n` +
      'ご自身に心当たりがない場合でも、パスワードが正しければアカウントは安全です。' +
      '不安な場合は、ログイン後にパスワードを変更してください。' +
      SIGNATURE,
    link,
  };
}
