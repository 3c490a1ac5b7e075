import { Global, Module } from '@nestjs/common';
import { AppConfigService } from 'src/config/app-config.service';

let fromProcess: AppConfigService | undefined;

/** The one place that reads process.env; read once per process (main.ts needs it before Nest boots). */
export const processConfig = (): AppConfigService => (fromProcess ??= AppConfigService.fromEnv(process.env));

@Global()
@Module({
  providers: [{ provide: AppConfigService, useFactory: processConfig }],
  exports: [AppConfigService],
})
export class AppConfigModule {}
