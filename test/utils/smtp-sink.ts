import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

interface SunkMail {
  /** Envelope recipients. */
  to: string[];
  from: string;
  subject: string;
  text: string;
}

/**
 * A real SMTP server on 127.0.0.1 that keeps every message it accepts, parsed. A message is stored
 * before the server answers 250, so once the panel's send has resolved the mail is here.
 */
export class SmtpSink {
  readonly mails: SunkMail[] = [];
  /** While true, every recipient is refused with 550, as a mail server that will not relay. */
  refuse = false;

  private readonly server: SMTPServer = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo: (_address, _session, callback) => {
      callback(this.refuse ? Object.assign(new Error('Relay access denied'), { responseCode: 550 }) : undefined);
    },
    onData: (stream, session, callback) => {
      simpleParser(stream).then(
        (parsed) => {
          this.mails.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
          });
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });

  private constructor() {}

  static async start(): Promise<SmtpSink> {
    const sink = new SmtpSink();
    await new Promise<void>((resolve, reject) => {
      sink.server.once('error', reject);
      sink.server.listen(0, '127.0.0.1', () => resolve());
    });
    return sink;
  }

  get port(): number {
    return (this.server.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The mails sent to `address`, oldest first. */
  to(address: string): SunkMail[] {
    return this.mails.filter((m) => m.to.includes(address));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
