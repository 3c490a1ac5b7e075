import type { MailMessage } from 'src/modules/mail/mail.service';
import type { UserEntity } from 'src/modules/users/user.entity';

/** Security notices, worded as the two-factor ones: what changed, and what to do if it was not them. */
const notice = (user: UserEntity, subject: string, what: string, appUrl: string): MailMessage => ({
  to: user.email,
  subject,
  text: [
    `Hello ${user.name || user.username},`,
    '',
    what,
    '',
    `If this was not you, reset your password at ${appUrl} now and check your account's passkeys, sessions and API keys.`,
    '',
    '— Hatchery',
  ].join('\n'),
});

export const passkeyAddedNotice = (user: UserEntity, name: string, appUrl: string): MailMessage =>
  notice(user, 'A passkey was added', `A passkey named "${name}" was just added to your Hatchery account. It signs in without a password.`, appUrl);

export const passkeyRemovedNotice = (user: UserEntity, name: string, appUrl: string): MailMessage =>
  notice(user, 'A passkey was removed', `The passkey named "${name}" was just removed from your Hatchery account.`, appUrl);
