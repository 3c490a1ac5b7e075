import { Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { AppException } from 'src/common/errors/app.exception';
import { isDecimalId } from 'src/common/validation/decimal-id.pipe';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { DatabaseError } from 'src/modules/databases/databases.errors';
import { CreateServerDatabaseDto } from 'src/modules/databases/dto/server-database.dto';
import { ServerDatabasesService } from 'src/modules/databases/server-databases.service';
import { ClientActor, ClientServerRoute } from 'src/modules/pterodactyl/client/client-access';
import { allocationItem, databaseItem } from 'src/modules/pterodactyl/client/client-transformers';
import { asHatchery } from 'src/modules/pterodactyl/client/client-validation';
import { AllocationNotesBody, StoreDatabaseBody } from 'src/modules/pterodactyl/client/dto/server-settings.dto';
import { FractalItem, FractalList, includesOf, item, list, NULL_RESOURCE, withRelationships } from 'src/modules/pterodactyl/common/fractal';
import { PterodactylBody } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { PterodactylError } from 'src/modules/pterodactyl/common/pterodactyl-errors';
import { PterodactylController } from 'src/modules/pterodactyl/common/pterodactyl-route';
import { ClientServerSettingsService } from 'src/modules/servers/client-server-settings.service';
import type { NetworkAllocationDto } from 'src/modules/servers/dto/server-settings.dto';
import { CurrentServer, ServerAccess } from 'src/modules/servers/server-access';

/** Hatchery's network answer as Pterodactyl's allocation item. */
const networkItem = (a: NetworkAllocationDto): FractalItem => allocationItem(a, a.isDefault ? a.id : null);

const databaseRef = (id: string): string => {
  if (!isDecimalId(id)) {
    throw new AppException(DatabaseError.NOT_FOUND);
  }
  return id;
};

/** `/pterodactyl/api/client/servers/{server}`: databases and network allocations (DatabaseController, NetworkAllocationController). */
@PterodactylController()
@Controller('pterodactyl/api/client/servers/:server')
export class PterodactylClientServerDatabasesNetworkController {
  constructor(
    private readonly databases: ServerDatabasesService,
    private readonly settings: ClientServerSettingsService,
  ) {}

  /** `?include=password` is a null resource: Hatchery never keeps a password to show again (docs/pterodactyl-compat.md). */
  @Get('databases')
  @ClientServerRoute('server.database.read')
  async listDatabases(@CurrentServer() access: ServerAccess, @Query() query: Record<string, unknown>): Promise<FractalList> {
    const { data } = await this.databases.list(access, { page: 1, perPage: 1000, skip: 0 });
    const withPassword = includesOf(query, ['password'] as const).has('password');
    return list(data.map((d) => (withPassword ? withRelationships(databaseItem(d), { password: NULL_RESOURCE }) : databaseItem(d))));
  }

  /** The password shows here, once, as Hatchery shows it when a database is made. */
  @Post('databases')
  @HttpCode(200)
  @ClientServerRoute('server.database.create')
  async createDatabase(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @PterodactylBody(StoreDatabaseBody) body: StoreDatabaseBody): Promise<FractalItem> {
    const dto = asHatchery(CreateServerDatabaseDto, { name: body.database, remote: body.remote }, (f) => (f === 'name' ? 'database' : f));
    const { data, meta } = await this.databases.create(access, dto, actor);
    const created = databaseItem({ id: data.id, name: data.name, username: data.username, remote: dto.remote, host: { hostname: data.host, port: data.port } });
    return withRelationships(created, { password: item('database_password', { password: meta.password }) });
  }

  @Post('databases/:database/rotate-password')
  @HttpCode(200)
  @ClientServerRoute('server.database.update')
  async rotatePassword(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @Param('database') id: string): Promise<FractalItem> {
    const { data, meta } = await this.databases.rotatePassword(access, databaseRef(id), actor);
    return withRelationships(databaseItem(data), { password: item('database_password', { password: meta.password }) });
  }

  @Delete('databases/:database')
  @HttpCode(204)
  @ClientServerRoute('server.database.delete')
  async deleteDatabase(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @Param('database') id: string): Promise<void> {
    await this.databases.delete(access, databaseRef(id), actor);
  }

  @Get('network/allocations')
  @ClientServerRoute('server.allocation.read')
  async allocations(@CurrentServer() access: ServerAccess): Promise<FractalList> {
    return list((await this.settings.allocations(access)).map((a) => allocationItem(a, access.server.allocationId)));
  }

  /** A free allocation of the node, within the server's allocation limit (Hatchery's own rules and activity). */
  @Post('network/allocations')
  @HttpCode(200)
  @ClientServerRoute('server.allocation.create')
  async assignAllocation(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor): Promise<FractalItem> {
    return networkItem(await this.settings.addAllocation(access, actor));
  }

  @Post('network/allocations/:allocation')
  @HttpCode(200)
  @ClientServerRoute('server.allocation.update')
  async allocationNotes(
    @CurrentServer() access: ServerAccess,
    @ClientActor() actor: Actor,
    @Param('allocation') id: string,
    @PterodactylBody(AllocationNotesBody) body: AllocationNotesBody,
  ): Promise<FractalItem> {
    const allocation = await this.allocationOf(access, id);
    const notes = body.notes === undefined || body.notes === null || body.notes === '' ? null : body.notes;
    return networkItem(await this.settings.setAllocationNotes(access, actor, allocation.id, notes));
  }

  /** The node is told at once, as Hatchery's own route does. */
  @Post('network/allocations/:allocation/primary')
  @HttpCode(200)
  @ClientServerRoute('server.allocation.update')
  async primaryAllocation(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @Param('allocation') id: string): Promise<FractalItem> {
    const allocation = await this.allocationOf(access, id);
    return networkItem(await this.settings.setPrimaryAllocation(access, actor, allocation.id));
  }

  @Delete('network/allocations/:allocation')
  @HttpCode(204)
  @ClientServerRoute('server.allocation.delete')
  async deleteAllocation(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @Param('allocation') id: string): Promise<void> {
    const allocation = await this.allocationOf(access, id);
    await this.settings.removeAllocation(access, actor, allocation.id);
  }

  private async allocationOf(access: ServerAccess, id: string) {
    const allocation = isDecimalId(id) ? (await this.settings.allocations(access)).find((a) => a.id === id) : undefined;
    if (!allocation) {
      throw new AppException(PterodactylError.NOT_FOUND);
    }
    return allocation;
  }
}
