import { Global, Module } from '@nestjs/common';
import { AppConfigService } from 'src/config/app-config.service';
import { AppUrlPortCheck } from 'src/config/app-url-port';

let fromProcess: AppConfigService | undefined;

/** The one place that reads process.env; read once per process (main.ts needs it before Nest boots). */
export const processConfig = (): AppConfigService => (fromProcess ??= AppConfigService.fromEnv(process.env));

@Global()
@Module({
  providers: [{ provide: AppConfigService, useFactory: processConfig }, AppUrlPortCheck],
  exports: [AppConfigService],
})
export class AppConfigModule {}
