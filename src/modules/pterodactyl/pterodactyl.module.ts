import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EggsModule } from 'src/modules/eggs/eggs.module';
import { NodesModule } from 'src/modules/nodes/nodes.module';
import { ApplicationAllocationsController } from 'src/modules/pterodactyl/application/allocations.controller';
import { ApplicationLocationsController } from 'src/modules/pterodactyl/application/locations.controller';
import { ApplicationNestsController } from 'src/modules/pterodactyl/application/nests.controller';
import { ApplicationNodesController } from 'src/modules/pterodactyl/application/nodes.controller';
import { ApplicationServersController } from 'src/modules/pterodactyl/application/servers.controller';
import { ApplicationUsersController } from 'src/modules/pterodactyl/application/users.controller';
import { PterodactylClientModule } from 'src/modules/pterodactyl/client/pterodactyl-client.module';
import { ApplicationServerViews } from 'src/modules/pterodactyl/application/server-views';
import { ApplicationServersService } from 'src/modules/pterodactyl/application/servers.service';
import { ApplicationNodesService } from 'src/modules/pterodactyl/application/nodes.service';
import { ApplicationUsersService } from 'src/modules/pterodactyl/application/users.service';
import { ApplicationServerDatabasesController } from 'src/modules/pterodactyl/application/server-databases.controller';
import { DatabasesModule } from 'src/modules/databases/databases.module';
import { PterodactylKeyGuard, PterodactylKeyRateLimitTracker } from 'src/modules/pterodactyl/common/pterodactyl-route';
import { PterodactylKeyEntity } from 'src/modules/pterodactyl/keys/pterodactyl-key.entity';
import { PterodactylApplicationKeysController, PterodactylClientKeysController } from 'src/modules/pterodactyl/keys/pterodactyl-keys.controller';
import { PterodactylKeysRepository } from 'src/modules/pterodactyl/keys/pterodactyl-keys.repository';
import { PterodactylKeysService } from 'src/modules/pterodactyl/keys/pterodactyl-keys.service';
import { ServersModule } from 'src/modules/servers/servers.module';
import { UsersModule } from 'src/modules/users/users.module';

/**
 * The Pterodactyl-compatible API layer (docs/pterodactyl-compat.md). Global so that the route guard
 * resolves wherever a controller of the layer is declared (the tests declare probe routes of their own).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([PterodactylKeyEntity]), UsersModule, NodesModule, EggsModule, ServersModule, DatabasesModule, PterodactylClientModule],
  controllers: [
    PterodactylClientKeysController,
    PterodactylApplicationKeysController,
    ApplicationUsersController,
    ApplicationLocationsController,
    ApplicationNodesController,
    ApplicationAllocationsController,
    ApplicationNestsController,
    ApplicationServersController,
    ApplicationServerDatabasesController,
  ],
  providers: [ApplicationServerViews, ApplicationServersService, ApplicationNodesService, ApplicationUsersService, PterodactylKeysRepository, PterodactylKeysService, PterodactylKeyGuard, PterodactylKeyRateLimitTracker],
  exports: [PterodactylKeysService, PterodactylKeyGuard],
})
export class PterodactylModule {}
