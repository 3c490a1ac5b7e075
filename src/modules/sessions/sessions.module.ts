import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SessionEntity } from 'src/modules/sessions/session.entity';
import { SessionsController } from 'src/modules/sessions/sessions.controller';
import { SessionsRepository } from 'src/modules/sessions/sessions.repository';
import { SessionsService } from 'src/modules/sessions/sessions.service';
import { UserLifecycle } from 'src/modules/users/user-lifecycle';
import { UsersModule } from 'src/modules/users/users.module';

@Module({
  imports: [TypeOrmModule.forFeature([SessionEntity]), UsersModule],
  controllers: [SessionsController],
  providers: [SessionsRepository, SessionsService],
  exports: [SessionsService],
})
export class SessionsModule implements OnModuleInit {
  constructor(
    private readonly lifecycle: UserLifecycle,
    private readonly sessions: SessionsService,
  ) {}

  /** A new password or a suspension ends the user's sessions, in the transaction that changes the user. */
  onModuleInit(): void {
    this.lifecycle.on({ signInsEnded: (manager, userId, keepSessionId) => this.sessions.revokeAll(userId, keepSessionId, manager) });
  }
}
