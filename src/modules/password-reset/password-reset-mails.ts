import type { MailMessage } from 'src/modules/mail/mail.service';
import type { UserEntity } from 'src/modules/users/user.entity';

/** The page of the panel's web app that takes the token and asks for the new password. */
const RESET_PAGE_PATH = '/auth/password/reset';

export const resetLink = (appUrl: string, token: string): string =>
  `${appUrl.replace(/\/+$/, '')}${RESET_PAGE_PATH}?token=${encodeURIComponent(token)}`;

export const passwordResetMail = (user: UserEntity, link: string): MailMessage => ({
  to: user.email,
  subject: 'Reset your Hatchery password',
  text: [
    `Hello ${user.name || user.username},`,
    '',
    'Someone asked to reset the password of your Hatchery account. To choose a new password, open this link within one hour:',
    '',
    link,
    '',
    'The link works once. Resetting the password signs the account out everywhere.',
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
    '',
    '— Hatchery',
  ].join('\n'),
});

/** To an account without a password (made through single sign-on) whose holder asked for one from their account settings. */
export const setPasswordMail = (user: UserEntity, link: string): MailMessage => ({
  to: user.email,
  subject: 'Choose a password for your Hatchery account',
  text: [
    `Hello ${user.name || user.username},`,
    '',
    'You asked for a password for your Hatchery account, which so far signs in through a linked account. To choose one, open this link within one hour:',
    '',
    link,
    '',
    'The link works once. Choosing the password signs the account out everywhere; sign in again with it or as before.',
    'If you did not ask for this, ignore this e-mail: the account stays without a password.',
    '',
    '— Hatchery',
  ].join('\n'),
});

export const passwordChangedMail = (user: UserEntity, appUrl: string): MailMessage => ({
  to: user.email,
  subject: 'Your Hatchery password was reset',
  text: [
    `Hello ${user.name || user.username},`,
    '',
    'The password of your Hatchery account was just reset through an e-mailed link, and every session was signed out.',
    '',
    `If this was not you, reset your password again at ${appUrl} and check your account's API keys.`,
    '',
    '— Hatchery',
  ].join('\n'),
});

/** To an account created when a server owner added its address as a subuser: choose a password, then sign in. */
export const invitationMail = (user: UserEntity, link: string, invitation: { serverName: string; invitedBy: string; validHours: number }): MailMessage => ({
  to: user.email,
  subject: 'You were invited to a server on Hatchery',
  text: [
    'Hello,',
    '',
    `${invitation.invitedBy} gave you access to the server "${invitation.serverName}" on Hatchery, and an account was created for ${user.email} (username ${user.username}).`,
    '',
    `To choose its password, open this link within ${invitation.validHours} hours:`,
    '',
    link,
    '',
    'If the link has expired, ask for a new one with "Forgot password" and this e-mail address.',
    'If you did not expect this, ignore this e-mail: nobody can sign in to the account until a password is chosen.',
    '',
    '— Hatchery',
  ].join('\n'),
});
