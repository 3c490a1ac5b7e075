import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { randomString } from 'src/common/crypto/tokens';
import { AppException } from 'src/common/errors/app.exception';
import { DaemonGateway } from 'src/modules/daemon-gateway/daemon.gateway';
import { consoleTokenId } from 'src/modules/daemon-gateway/daemon-token-signer';
import type { ServerAccess } from 'src/modules/servers/server-access';
import { ALL_SERVER_PERMISSIONS, isServerPermission, ServerPermission } from 'src/modules/servers/server-permissions';
import { ServerActivityLog } from 'src/modules/servers/server-activity';
import { SubuserEmailDto, SubuserResponseDto, toSubuserResponse } from 'src/modules/servers/subusers/dto/subuser.dto';
import { addedToServerMail } from 'src/modules/servers/subusers/subuser-mails';
import { Clock } from 'src/common/clock';
import { AppConfigService } from 'src/config/app-config.service';
import { toMailDelivery } from 'src/modules/mail/dto/mail-delivery.dto';
import { MailOutcome, MailService } from 'src/modules/mail/mail.service';
import { SubuserError } from 'src/modules/servers/subusers/subusers.errors';
import { LoadedSubuser, SubusersRepository } from 'src/modules/servers/subusers/subusers.repository';
import { PasswordResetService } from 'src/modules/password-reset/password-reset.service';
import { UserError } from 'src/modules/users/users.errors';
import { UsersService } from 'src/modules/users/users.service';

const LOWER_ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A username for an invited account: the address's local part, made valid, and a random suffix. */
const invitedUsername = (email: string): string => {
  const stem = email.split('@')[0].replace(/[^a-z0-9_.-]/g, '').replace(/^[^a-z0-9]+/, '').slice(0, 20) || 'user';
  return `${stem}_${randomString(6, LOWER_ALPHANUMERIC)}`;
};

/** A new subuser, and what became of the e-mail that tells them (an invitation, or a notice to an existing account). */
interface AddedSubuser {
  subuser: SubuserResponseDto;
  email: SubuserEmailDto;
}


/** Every subuser can see the server it was added to; the rest is what it was granted. */
const IMPLIED: readonly ServerPermission[] = ['server.view'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class SubusersService {
  private readonly logger = new Logger(SubusersService.name);

  constructor(
    private readonly subusers: SubusersRepository,
    private readonly users: UsersService,
    private readonly activityLog: ServerActivityLog,
    private readonly daemon: DaemonGateway,
    private readonly passwordReset: PasswordResetService,
    private readonly mail: MailService,
    private readonly clock: Clock,
    private readonly config: AppConfigService,
  ) {}

  async list(access: ServerAccess): Promise<SubuserResponseDto[]> {
    return (await this.subusers.listOf(access.server.id)).map(toSubuserResponse);
  }

  /** The account id of the server's subuser whose account has this uuid (how Pterodactyl names a subuser); none is 404. */
  async userIdOfUuid(access: ServerAccess, uuid: string): Promise<string> {
    const id = UUID.test(uuid) ? await this.subusers.findUserIdByUserUuid(access.server.id, uuid.toLowerCase()) : null;
    if (!id) {
      throw new AppException(SubuserError.NOT_FOUND);
    }
    return id;
  }

  async view(access: ServerAccess, userId: string): Promise<SubuserResponseDto> {
    return toSubuserResponse(await this.entry(access, userId));
  }

  /**
   * Adds the account that uses `email`. An address no account uses gets one (a generated username,
   * no usable password) and an e-mailed link to choose its password; an existing account is e-mailed
   * a notice. So the answer, which tells whether the e-mail went out, is the same either way and
   * does not tell the caller whether the address had an account. The account, its link and the
   * subuser row are written in one transaction; the mail goes out after it commits.
   */
  async create(access: ServerAccess, actor: Actor, email: string, requested: string[]): Promise<AddedSubuser> {
    const permissions = this.grantable(access, requested);
    try {
      return await this.add(access, actor, email.trim().toLowerCase(), permissions);
    } catch (e) {
      // Two invitations of one new address at once: the second finds the first's account on a retry.
      if (e instanceof AppException && e.code === UserError.EMAIL_TAKEN.code) {
        return this.add(access, actor, email.trim().toLowerCase(), permissions);
      }
      throw e;
    }
  }

  private async add(access: ServerAccess, actor: Actor, email: string, permissions: ServerPermission[]): Promise<AddedSubuser> {
    const existing = await this.users.findByEmail(email);
    if (existing && existing.id === access.server.ownerId) {
      throw new AppException(SubuserError.IS_OWNER);
    }
    const about = { serverName: access.server.name, invitedBy: actor.username };
    let invitation: { send: () => Promise<MailOutcome> } | undefined;
    const saved = await this.subusers.transaction(async (manager) => {
      let user = existing;
      if (!user) {
        user = await this.users.createInvited(email, invitedUsername(email), this.clock.now(), manager);
        invitation = await this.passwordReset.invite(user, about, manager);
      }
      const row = await this.subusers.insert({ serverId: access.server.id, userId: user.id, permissions }, manager);
      if (!row) {
        throw new AppException(SubuserError.ALREADY_SUBUSER);
      }
      await this.activity(manager, access, actor, 'server.subuser.create', { email: user.email, permissions });
      return (await this.subusers.findOne(access.server.id, user.id, manager))!;
    });
    const outcome = invitation
      ? await invitation.send()
      : await this.mail.deliver(addedToServerMail(saved.user, this.config.http.appUrl, about), { purpose: 'subuser added notice', userId: saved.userId });
    return { subuser: toSubuserResponse(saved), email: toMailDelivery(outcome) };
  }

  /** New permissions replace the old; console sessions opened under the old ones are cut. */
  async update(access: ServerAccess, actor: Actor, userId: string, requested: string[]): Promise<SubuserResponseDto> {
    const entry = await this.entry(access, userId);
    this.notSelf(actor, entry);
    const permissions = this.grantable(access, requested);
    const changed = permissions.join() !== entry.permissions.join();
    if (changed) {
      await this.subusers.transaction(async (manager) => {
        await this.subusers.setPermissions(entry.id, permissions, manager);
        await this.activity(manager, access, actor, 'server.subuser.update', { email: entry.user.email, old: entry.permissions, new: permissions });
      });
      await this.revokeConsole(access, entry);
    }
    return toSubuserResponse((await this.subusers.findOne(access.server.id, entry.userId))!);
  }

  async remove(access: ServerAccess, actor: Actor, userId: string): Promise<void> {
    const entry = await this.entry(access, userId);
    this.notSelf(actor, entry);
    await this.subusers.transaction(async (manager) => {
      await this.subusers.delete(entry.id, manager);
      await this.activity(manager, access, actor, 'server.subuser.delete', { email: entry.user.email });
    });
    await this.revokeConsole(access, entry);
  }

  private async entry(access: ServerAccess, userId: string): Promise<LoadedSubuser> {
    const entry = /^[1-9][0-9]{0,18}$/.test(userId) ? await this.subusers.findOne(access.server.id, userId) : null;
    if (!entry) {
      throw new AppException(SubuserError.NOT_FOUND);
    }
    return entry;
  }

  private notSelf(actor: Actor, entry: LoadedSubuser): void {
    if (entry.userId === actor.userId) {
      throw new AppException(SubuserError.SELF);
    }
  }

  /**
   * The requested permissions in catalogue order, with the implied ones; unknown names are a 400
   * and requested names the caller does not hold itself a 403 (owners and admins hold them all).
   */
  private grantable(access: ServerAccess, requested: string[]): ServerPermission[] {
    const unknown = requested.filter((p) => !isServerPermission(p));
    if (unknown.length > 0) {
      throw new AppException(SubuserError.UNKNOWN_PERMISSION, {
        message: `Unknown server permission: ${unknown.join(', ')}`,
        details: { unknown, allowed: ALL_SERVER_PERMISSIONS },
      });
    }
    const wanted = new Set([...IMPLIED, ...(requested as ServerPermission[])]);
    // The implied ones come with being a subuser, not from the caller: a servers.write-only admin key holds no server.view.
    const notHeld = [...new Set(requested as ServerPermission[])].filter((p) => !access.permissions.includes(p));
    if (notHeld.length > 0) {
      throw new AppException(SubuserError.CANNOT_GRANT, { details: { notHeld } });
    }
    return ALL_SERVER_PERMISSIONS.filter((p) => wanted.has(p));
  }

  /**
   * Wings denies every console token of this user on this server issued before now. A daemon that
   * cannot be reached has no open console to cut, so the change stands and the failure is logged.
   */
  private async revokeConsole(access: ServerAccess, entry: LoadedSubuser): Promise<void> {
    try {
      await this.daemon.denyTokens(access.server.node, access.server.uuid, [consoleTokenId(entry.userId, access.server.uuid)]);
    } catch (e) {
      this.logger.warn(`could not revoke console tokens of user ${entry.userId} on server ${access.server.uuid}: ${(e as Error).message}`);
    }
  }

  private activity(manager: EntityManager, access: ServerAccess, actor: Actor, event: string, metadata: Record<string, unknown>): Promise<void> {
    return this.activityLog.byUser(access.server.id, actor, event, metadata, { manager });
  }
}
