import { Global, Module } from '@nestjs/common';
import { BackgroundTasks } from 'src/common/background/background-tasks';

@Global()
@Module({
  providers: [BackgroundTasks],
  exports: [BackgroundTasks],
})
export class BackgroundTasksModule {}
