import { ApiProperty } from '@nestjs/swagger';
import type { MailOutcome } from 'src/modules/mail/mail.service';

/** Whether an e-mail the caller's action sends went out, and if not, why. */
export class MailDeliveryDto {
  sent!: boolean;
  /** Why not: the panel has no mail server (SMTP_URL), or the mail server refused or could not be reached. */
  @ApiProperty({ enum: ['mail_not_configured', 'mail_failed'], nullable: true, type: String })
  reason!: 'mail_not_configured' | 'mail_failed' | null;
}

export const toMailDelivery = (outcome: MailOutcome): MailDeliveryDto =>
  outcome === 'sent' ? { sent: true, reason: null } : { sent: false, reason: outcome === 'not_configured' ? 'mail_not_configured' : 'mail_failed' };
