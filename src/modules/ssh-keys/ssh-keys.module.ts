import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SshKeyEntity } from 'src/modules/ssh-keys/ssh-key.entity';
import { SshKeysController } from 'src/modules/ssh-keys/ssh-keys.controller';
import { SshKeysRepository } from 'src/modules/ssh-keys/ssh-keys.repository';
import { SshKeysService } from 'src/modules/ssh-keys/ssh-keys.service';

@Module({
  imports: [TypeOrmModule.forFeature([SshKeyEntity])],
  controllers: [SshKeysController],
  providers: [SshKeysRepository, SshKeysService],
  exports: [SshKeysService],
})
export class SshKeysModule {}
