import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SessionEntity } from 'src/modules/sessions/session.entity';
import { SessionsController } from 'src/modules/sessions/sessions.controller';
import { SessionsRepository } from 'src/modules/sessions/sessions.repository';
import { SessionsService } from 'src/modules/sessions/sessions.service';

@Module({
  imports: [TypeOrmModule.forFeature([SessionEntity])],
  controllers: [SessionsController],
  providers: [SessionsRepository, SessionsService],
  exports: [SessionsService],
})
export class SessionsModule {}
