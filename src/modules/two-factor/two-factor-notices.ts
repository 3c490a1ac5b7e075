import type { MailMessage } from 'src/modules/mail/mail.service';
import type { UserEntity } from 'src/modules/users/user.entity';

/**
 * Security notices (two-factor here, passkeys too): each tells the owner what changed, and what to do
 * if it was not them; `check` names what they should look over besides the password.
 */
export const securityNotice = (user: UserEntity, subject: string, what: string, appUrl: string, check = 'sessions and API keys'): MailMessage => ({
  to: user.email,
  subject,
  text: [
    `Hello ${user.name || user.username},`,
    '',
    what,
    '',
    `If this was not you, reset your password at ${appUrl} now and check your account's ${check}.`,
    '',
    '— Hatchery',
  ].join('\n'),
});

export const twoFactorEnabledNotice = (user: UserEntity, appUrl: string): MailMessage =>
  securityNotice(user, 'Two-factor sign-in was turned on', 'Two-factor sign-in was just turned on for your Hatchery account.', appUrl);

export const twoFactorDisabledNotice = (user: UserEntity, appUrl: string): MailMessage =>
  securityNotice(user, 'Two-factor sign-in was turned off', 'Two-factor sign-in was just turned off for your Hatchery account.', appUrl);

export const recoveryCodeUsedNotice = (user: UserEntity, remaining: number, appUrl: string): MailMessage =>
  securityNotice(
    user,
    'A recovery code was used to sign in',
    `A recovery code was just used to sign in to your Hatchery account. ${remaining} unused recovery code${remaining === 1 ? '' : 's'} remain${remaining === 1 ? 's' : ''}.`,
    appUrl,
  );

export const twoFactorResetNotice = (user: UserEntity, appUrl: string): MailMessage =>
  securityNotice(
    user,
    'Two-factor sign-in was turned off by an administrator',
    'An administrator just turned two-factor sign-in off for your Hatchery account; your recovery codes and passkeys no longer work. Turn it on again, or add a passkey, under Account.',
    appUrl,
  );
