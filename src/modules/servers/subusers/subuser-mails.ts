import type { MailMessage } from 'src/modules/mail/mail.service';
import type { UserEntity } from 'src/modules/users/user.entity';

/** To an account that already existed when a server owner added its address as a subuser. */
export const addedToServerMail = (user: UserEntity, appUrl: string, added: { serverName: string; invitedBy: string }): MailMessage => ({
  to: user.email,
  subject: 'You were given access to a server on Hatchery',
  text: [
    `Hello ${user.name || user.username},`,
    '',
    `${added.invitedBy} gave your account access to the server "${added.serverName}" on Hatchery.`,
    '',
    `Sign in at ${appUrl} to find it among your servers.`,
    '',
    '— Hatchery',
  ].join('\n'),
});
