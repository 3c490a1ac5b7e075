import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { BackgroundTasksModule } from 'src/common/background/background-tasks.module';
import { ClockModule } from 'src/common/clock.module';
import { ChangeFeedModule } from 'src/common/hot-cache/change-feed.module';
import { HotCacheModule } from 'src/common/hot-cache/hot-cache.module';
import { LoggingModule } from 'src/common/logging/logging.module';
import { AppConfigModule } from 'src/config/config.module';
import { DatabaseModule } from 'src/database/database.module';
import { AccountModule } from 'src/modules/account/account.module';
import { ApiKeysModule } from 'src/modules/api-keys/api-keys.module';
import { AuditModule } from 'src/modules/audit/audit.module';
import { BackupsModule } from 'src/modules/backups/backups.module';
import { DaemonGatewayModule } from 'src/modules/daemon-gateway/daemon-gateway.module';
import { DatabasesModule } from 'src/modules/databases/databases.module';
import { EggsModule } from 'src/modules/eggs/eggs.module';
import { FilesModule } from 'src/modules/files/files.module';
import { AuthModule } from 'src/modules/auth/auth.module';
import { HealthModule } from 'src/modules/health/health.module';
import { LiveStatusModule } from 'src/modules/live-status/live-status.module';
import { MountsModule } from 'src/modules/mounts/mounts.module';
import { NodesModule } from 'src/modules/nodes/nodes.module';
import { SchedulesModule } from 'src/modules/schedules/schedules.module';
import { ServersModule } from 'src/modules/servers/servers.module';
import { SessionsModule } from 'src/modules/sessions/sessions.module';
import { FirstAdminBootstrap } from 'src/modules/users/first-admin.bootstrap';
import { UsersModule } from 'src/modules/users/users.module';
import { RateLimitModule } from 'src/common/rate-limit/rate-limit.module';
import { SharedRedisModule } from 'src/common/redis/shared-redis';
import { SshKeysModule } from 'src/modules/ssh-keys/ssh-keys.module';
import { CaptchaModule } from 'src/modules/captcha/captcha.module';
import { MailModule } from 'src/modules/mail/mail.module';
import { PasswordResetModule } from 'src/modules/password-reset/password-reset.module';
import { TwoFactorModule } from 'src/modules/two-factor/two-factor.module';
import { SettingsModule } from 'src/modules/settings/settings.module';
import { AdminRolesModule } from 'src/modules/roles/admin-roles.module';
import { RolesModule } from 'src/modules/roles/roles.module';
import { PterodactylModule } from 'src/modules/pterodactyl/pterodactyl.module';
import { RetentionModule } from 'src/modules/retention/retention.module';
import { UsageModule } from 'src/modules/usage/usage.module';
import { MetricsModule } from 'src/modules/metrics/metrics.module';
import { MetricsCoreModule } from 'src/common/metrics/metrics-core.module';
import { PanelEventsModule } from 'src/common/events/panel-events';
import { WebhooksModule } from 'src/modules/webhooks/webhooks.module';
import { OAuthModule } from 'src/modules/oauth/oauth.module';

@Module({
  imports: [
    AppConfigModule,
    LoggingModule,
    ClockModule,
    PanelEventsModule,
    BackgroundTasksModule,
    RateLimitModule,
    SharedRedisModule,
    DatabaseModule,
    HotCacheModule,
    ChangeFeedModule,
    ScheduleModule.forRoot(),
    HealthModule,
    SettingsModule,
    AdminRolesModule,
    UsersModule,
    SessionsModule,
    ApiKeysModule,
    AuthModule,
    CaptchaModule,
    MailModule,
    TwoFactorModule,
    PasswordResetModule,
    AccountModule,
    SshKeysModule,
    AuditModule,
    EggsModule,
    DaemonGatewayModule,
    MountsModule,
    NodesModule,
    ServersModule,
    FilesModule,
    DatabasesModule,
    SchedulesModule,
    BackupsModule,
    LiveStatusModule,
    PterodactylModule,
    RetentionModule,
    UsageModule,
    MetricsCoreModule,
    MetricsModule,
    WebhooksModule,
    RolesModule,
    OAuthModule,
  ],
  // Here rather than in UsersModule so that the CLI, which imports UsersModule, never runs it.
  providers: [FirstAdminBootstrap],
})
export class AppModule {}
