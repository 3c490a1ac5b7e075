import { Global, Module } from '@nestjs/common';
import { AppConfigService } from 'src/config/app-config.service';

@Global()
@Module({
  providers: [
    {
      provide: AppConfigService,
      // The one place that reads process.env.
      useFactory: () => AppConfigService.fromEnv(process.env),
    },
  ],
  exports: [AppConfigService],
})
export class AppConfigModule {}
