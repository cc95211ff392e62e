import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  messageId: string;
  to: string[];
  raw: string;
}

export interface SmtpSink {
  /** smtp://127.0.0.1:<port> */
  url: string;
  received: ReceivedMail[];
  /** How many mails arrived under each Message-ID. */
  countsByMessageId(): Map<string, number>;
  /** Refuse the next `n` mails with a temporary failure (451). */
  refuseNext(n: number): void;
  /** Refuse this share (0..1) of mails at random. */
  refuseShare(share: number): void;
  close(): Promise<void>;
}

/**
 * A real SMTP server in the test process that keeps what it accepts and can refuse on
 * request: the outbox's retries meet a relay that answers as a relay does.
 */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  let refuse = 0;
  let share = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refuse > 0 || Math.random() < share) {
          refuse = Math.max(0, refuse - 1);
          const error = Object.assign(new Error('try again later'), { responseCode: 451 });
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const messageId = /^message-id:\s*(\S+)/im.exec(raw)?.[1] ?? '';
        received.push({
          messageId,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  // A sender killed mid-conversation resets its connection, as it would at a real relay:
  // the relay carries on (unhandled, the error would end the process that holds the sink).
  server.on('error', () => undefined);
  const address = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    received,
    countsByMessageId() {
      const counts = new Map<string, number>();
      for (const mail of received)
        counts.set(mail.messageId, (counts.get(mail.messageId) ?? 0) + 1);
      return counts;
    },
    refuseNext(n) {
      refuse = n;
    },
    refuseShare(value) {
      share = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
