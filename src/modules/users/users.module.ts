import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from 'src/modules/audit/audit.module';
import { PasswordHasher } from 'src/modules/users/password.hasher';
import { UserEntity } from 'src/modules/users/user.entity';
import { UserLifecycle } from 'src/modules/users/user-lifecycle';
import { UsersController } from 'src/modules/users/users.controller';
import { UsersRepository } from 'src/modules/users/users.repository';
import { UsersService } from 'src/modules/users/users.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity]), AuditModule],
  controllers: [UsersController],
  providers: [UsersRepository, UsersService, PasswordHasher, UserLifecycle],
  exports: [UsersService, PasswordHasher, UserLifecycle],
})
export class UsersModule {}
