import { Global, Module } from '@nestjs/common';
import { Clock, SystemClock } from 'src/common/clock';

@Global()
@Module({
  providers: [{ provide: Clock, useClass: SystemClock }],
  exports: [Clock],
})
export class ClockModule {}
