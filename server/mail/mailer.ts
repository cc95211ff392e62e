import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The one link the mail is about (activation, reset, a letter): logged by the outbox. */
  link?: string;
}

/** A mail as the outbox hands it to the wire: with the Message-ID every try repeats. */
export interface OutgoingMail extends MailMessage {
  messageId: string;
}

/** The wire: SMTP or .eml files. Only the outbox sender (mail/outbox.ts) calls it. */
export interface Mailer {
  send(message: OutgoingMail): Promise<void>;
  /** Resolves when the relay accepts a connection (readiness); absent without a relay. */
  verify?(): Promise<unknown>;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  /**
   * Print each outbox mail's link to the log (development: follow activation links without a
   * mail client). Never in production: a link is a credential, and logs travel further.
   */
  logLinks: boolean;
  log: FastifyBaseLogger;
}

/**
 * SMTP when SMTP_URL is set; otherwise every mail becomes an .eml file in DATA_DIR/outbox
 * and, outside production, its link is printed to the log, so a newcomer can follow
 * activation links locally.
 */
export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          messageId: message.messageId,
        });
      },
      verify: () => transport.verify(),
    };
  }
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    async send(message) {
      const info = await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        messageId: message.messageId,
      });
      await mkdir(options.outboxDir, { recursive: true });
      const file = path.join(options.outboxDir, `${Date.now()}-${randomUUID()}.eml`);
      await writeFile(file, info.message as Buffer);
      options.log.info(
        {
          mailTo: '[redacted]',
          subject: message.subject,
          ...(options.logLinks ? { link: message.link } : {}),
          file,
        },
        'mail written to outbox',
      );
    },
  };
}
