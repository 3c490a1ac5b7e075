import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from 'src/modules/audit/audit.module';
import { DatabaseHostEntity } from 'src/modules/databases/database-host.entity';
import { DatabaseHostsController } from 'src/modules/databases/database-hosts.controller';
import { DatabaseHostsService } from 'src/modules/databases/database-hosts.service';
import { DatabasesRepository } from 'src/modules/databases/databases.repository';
import { MySqlHostClient } from 'src/modules/databases/mysql-host.client';
import { ServerDatabaseEntity } from 'src/modules/databases/server-database.entity';
import { ServerDatabasesController } from 'src/modules/databases/server-databases.controller';
import { ServerDatabasesService } from 'src/modules/databases/server-databases.service';
import { ServersModule } from 'src/modules/servers/servers.module';
import { NodesModule } from 'src/modules/nodes/nodes.module';

/** Database hosts (admin) and per-server databases on them (client). */
@Module({
  imports: [TypeOrmModule.forFeature([DatabaseHostEntity, ServerDatabaseEntity]), AuditModule, NodesModule, ServersModule],
  controllers: [DatabaseHostsController, ServerDatabasesController],
  providers: [DatabasesRepository, MySqlHostClient, DatabaseHostsService, ServerDatabasesService],
  exports: [ServerDatabasesService],
})
export class DatabasesModule {}
