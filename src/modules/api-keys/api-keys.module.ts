import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyEntity } from 'src/modules/api-keys/api-key.entity';
import { UsersModule } from 'src/modules/users/users.module';
import { ApiKeysController } from 'src/modules/api-keys/api-keys.controller';
import { ApiKeysRepository } from 'src/modules/api-keys/api-keys.repository';
import { ApiKeysService } from 'src/modules/api-keys/api-keys.service';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity]), UsersModule],
  controllers: [ApiKeysController],
  providers: [ApiKeysRepository, ApiKeysService],
  exports: [ApiKeysService],
})
export class ApiKeysModule {}
