import type { MailMessage } from 'src/modules/mail/mail.service';
import { securityNotice } from 'src/modules/two-factor/two-factor-notices';
import type { UserEntity } from 'src/modules/users/user.entity';

/** Worded as the two-factor notices, with the account's passkeys among what to check. */
const CHECK = 'passkeys, sessions and API keys';

export const passkeyAddedNotice = (user: UserEntity, name: string, appUrl: string): MailMessage =>
  securityNotice(user, 'A passkey was added', `A passkey named "${name}" was just added to your Hatchery account. It signs in without a password.`, appUrl, CHECK);

export const passkeyRemovedNotice = (user: UserEntity, name: string, appUrl: string): MailMessage =>
  securityNotice(user, 'A passkey was removed', `The passkey named "${name}" was just removed from your Hatchery account.`, appUrl, CHECK);
