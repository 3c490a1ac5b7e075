import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { Transporter } from 'nodemailer';
import { Clock } from 'src/common/clock';
import { AppConfigService } from 'src/config/app-config.service';

const CHECK_TIMEOUT_MS = 3_000;
const CHECK_CACHE_MS = 60_000;

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** What became of a message: accepted by the mail server, not sent for want of SMTP_URL, or refused or unreachable. */
export type MailOutcome = 'sent' | 'not_configured' | 'failed';

/** Why a mail is sent and for whom, for the log line that replaces it when it cannot go out. */
interface MailContext {
  purpose: string;
  userId: string;
}

/**
 * Sends the panel's e-mails through SMTP_URL. Mail is best effort: without SMTP_URL, or when the
 * server refuses, a warning is logged and the caller carries on, so a missing mail server never
 * breaks sign-in or password reset. Message bodies (which hold reset links) are never logged.
 */
@Injectable()
export class MailService implements OnApplicationShutdown {
  private readonly logger = new Logger(MailService.name);
  /** Opened on the first mail: nodemailer is loaded only by panels that send one. */
  private transport?: Promise<Transporter>;
  private lastCheck?: { until: number; result: Promise<'up' | 'down'> };

  constructor(
    private readonly config: AppConfigService,
    private readonly clock: Clock,
  ) {}

  private transportFor(smtpUrl: string): Promise<Transporter> {
    this.transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }),
    );
    return this.transport;
  }

  /**
   * Whether SMTP_URL's server answers (connects, greets, and accepts the login when the URL has one),
   * with short timeouts, its answer kept for a minute: a health check, cheap enough for every page view.
   */
  async check(): Promise<'not-configured' | 'up' | 'down'> {
    const { smtpUrl } = this.config.mail;
    if (!smtpUrl) {
      return 'not-configured';
    }
    const now = this.clock.now().getTime();
    if (!this.lastCheck || this.lastCheck.until <= now) {
      const result = import('nodemailer').then(async ({ default: nodemailer }) => {
        const probe = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: CHECK_TIMEOUT_MS, greetingTimeout: CHECK_TIMEOUT_MS, socketTimeout: CHECK_TIMEOUT_MS });
        try {
          return (await probe.verify()) ? ('up' as const) : ('down' as const);
        } catch {
          return 'down' as const;
        } finally {
          probe.close();
        }
      });
      this.lastCheck = { until: now + CHECK_CACHE_MS, result };
    }
    return this.lastCheck.result;
  }

  /** Sends one message; resolves 'sent' once the server accepted it, else (after logging a warning) why not. Never rejects. */
  async deliver(message: MailMessage, context: MailContext): Promise<MailOutcome> {
    const { smtpUrl } = this.config.mail;
    if (!smtpUrl) {
      this.logger.warn({ purpose: context.purpose, userId: context.userId }, `SMTP_URL is not set: the ${context.purpose} e-mail was not sent`);
      return 'not_configured';
    }
    try {
      const transport = await this.transportFor(smtpUrl);
      await transport.sendMail({ from: this.config.mail.from, to: message.to, subject: message.subject, text: message.text });
      return 'sent';
    } catch (e) {
      const err = e as { code?: unknown; responseCode?: unknown };
      this.logger.warn(
        { purpose: context.purpose, userId: context.userId, code: err.code, responseCode: err.responseCode },
        `The ${context.purpose} e-mail could not be sent through SMTP_URL`,
      );
      return 'failed';
    }
  }

  // After BackgroundTasks has let queued mails go out (it waits before application shutdown).
  async onApplicationShutdown(): Promise<void> {
    (await this.transport?.catch(() => undefined))?.close();
  }
}
