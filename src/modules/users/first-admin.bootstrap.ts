import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfigService } from 'src/config/app-config.service';
import { UsersRepository } from 'src/modules/users/users.repository';
import { UsersService } from 'src/modules/users/users.service';

/** ADMIN_EMAIL + ADMIN_PASSWORD create the first administrator when no user exists yet. */
@Injectable()
export class FirstAdminBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger(FirstAdminBootstrap.name);

  constructor(
    private readonly config: AppConfigService,
    private readonly users: UsersRepository,
    private readonly service: UsersService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const admin = this.config.auth.firstAdmin;
    if (!admin || (await this.users.count()) > 0) {
      return;
    }
    const email = admin.email.toLowerCase();
    const username = admin.username ?? (email.split('@')[0].replace(/[^a-z0-9_.-]/g, '') || 'admin');
    const user = await this.service.create({ email, username, password: admin.password, admin: true });
    this.logger.log(`Created the first administrator ${user.username} <${user.email}> from ADMIN_EMAIL`);
  }
}
