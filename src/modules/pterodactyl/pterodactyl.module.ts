import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PterodactylClientModule } from 'src/modules/pterodactyl/client/pterodactyl-client.module';
import { PterodactylKeyGuard } from 'src/modules/pterodactyl/common/pterodactyl-route';
import { PterodactylKeyEntity } from 'src/modules/pterodactyl/keys/pterodactyl-key.entity';
import { PterodactylApplicationKeysController, PterodactylClientKeysController } from 'src/modules/pterodactyl/keys/pterodactyl-keys.controller';
import { PterodactylKeysRepository } from 'src/modules/pterodactyl/keys/pterodactyl-keys.repository';
import { PterodactylKeysService } from 'src/modules/pterodactyl/keys/pterodactyl-keys.service';

/**
 * The Pterodactyl-compatible API layer (docs/pterodactyl-compat.md). Global so that the route guard
 * resolves wherever a controller of the layer is declared (the tests declare probe routes of their own).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([PterodactylKeyEntity]), PterodactylClientModule],
  controllers: [PterodactylClientKeysController, PterodactylApplicationKeysController],
  providers: [PterodactylKeysRepository, PterodactylKeysService, PterodactylKeyGuard],
  exports: [PterodactylKeysService, PterodactylKeyGuard],
})
export class PterodactylModule {}
