import { Global, Module } from '@nestjs/common';
import { BackgroundTasks } from 'src/common/background/background-tasks';
import { JobQueue } from 'src/common/background/job-queue';

@Global()
@Module({
  providers: [BackgroundTasks, JobQueue],
  exports: [BackgroundTasks, JobQueue],
})
export class BackgroundTasksModule {}
