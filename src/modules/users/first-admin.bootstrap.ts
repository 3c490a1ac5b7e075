import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfigService } from 'src/config/app-config.service';
import { AdvisoryLocks, DatabaseLock } from 'src/database/db-lock';
import { UsersService } from 'src/modules/users/users.service';

/** The e-mail's local part, trimmed to what a username may hold (see IsUsername); `admin` if nothing is left. */
export const usernameFromEmail = (email: string): string =>
  email
    .split('@')[0]
    .toLowerCase()
    .replace(/[^a-z0-9_.-]/g, '')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 191) || 'admin';

/** ADMIN_EMAIL + ADMIN_PASSWORD create the first administrator when no user exists yet. */
@Injectable()
export class FirstAdminBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger(FirstAdminBootstrap.name);

  constructor(
    private readonly config: AppConfigService,
    private readonly service: UsersService,
    private readonly locks: AdvisoryLocks,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const admin = this.config.auth.firstAdmin;
    if (!admin) {
      return;
    }
    // Instances booting at once on one database would all see it empty; one at a time checks and creates.
    await this.locks.run(DatabaseLock.FirstAdmin, async () => {
      if ((await this.service.count()) > 0) {
        return;
      }
      const email = admin.email.toLowerCase();
      const username = admin.username ?? usernameFromEmail(email);
      const user = await this.service.create({ email, username, password: admin.password, admin: true });
      this.logger.log(`Created the first administrator ${user.username} <${user.email}> from ADMIN_EMAIL`);
    });
  }
}
