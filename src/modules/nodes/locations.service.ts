import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { Page, paginated, Paginated } from 'src/common/http/pagination';
import { AuditService, changedFields, pick } from 'src/modules/audit/audit.service';
import { CreateLocationDto, LocationResponseDto, toLocationResponse, UpdateLocationDto } from 'src/modules/nodes/dto/location.dto';
import { LocationEntity } from 'src/modules/nodes/location.entity';
import { NodeError } from 'src/modules/nodes/nodes.errors';
import { NodesRepository } from 'src/modules/nodes/nodes.repository';
import type { ListQuery } from 'src/database/like';

const FIELDS = ['short', 'long'] as const;

@Injectable()
export class LocationsService {
  constructor(
    private readonly repo: NodesRepository,
    private readonly audit: AuditService,
  ) {}

  async list(page: Page, list: ListQuery = {}): Promise<Paginated<LocationResponseDto>> {
    const [rows, total] = await this.repo.findLocationPage(page.skip, page.perPage, list);
    return paginated(rows.map(toLocationResponse), total, page);
  }

  /** A node's location or null, for other modules (the daemon's server configuration). */
  findLocation(id: string, manager?: EntityManager): Promise<LocationEntity | null> {
    return this.repo.findLocation(id, manager);
  }

  /** Locations by id (as a decimal string). */
  findLocations(ids: string[]): Promise<Map<string, LocationEntity>> {
    return this.repo.findLocations(ids);
  }

  async get(id: string): Promise<LocationEntity> {
    const location = await this.repo.findLocation(id);
    if (!location) {
      throw new AppException(NodeError.LOCATION_NOT_FOUND);
    }
    return location;
  }

  create(dto: CreateLocationDto, actor: Actor): Promise<LocationEntity> {
    return this.repo.transaction(async (manager) => {
      const location = await this.repo.saveLocation({ short: dto.short, long: dto.long ?? null }, manager);
      await this.audit.record(manager, actor, {
        action: 'location.created',
        targetType: 'location',
        targetId: location.id,
        changes: { after: pick(location, FIELDS) },
      });
      return location;
    });
  }

  update(id: string, dto: UpdateLocationDto, actor: Actor): Promise<LocationEntity> {
    return this.repo.transaction(async (manager) => {
      const before = await this.repo.findLocation(id, manager);
      if (!before) {
        throw new AppException(NodeError.LOCATION_NOT_FOUND);
      }
      const after = await this.repo.saveLocation({ ...before, ...dto }, manager);
      const changes = changedFields(before, after, FIELDS);
      if (Object.keys(changes.after).length > 0) {
        await this.audit.record(manager, actor, { action: 'location.updated', targetType: 'location', targetId: id, changes });
      }
      return after;
    });
  }

  delete(id: string, actor: Actor): Promise<void> {
    return this.repo.transaction(async (manager) => {
      const location = await this.repo.findLocation(id, manager);
      if (!location) {
        throw new AppException(NodeError.LOCATION_NOT_FOUND);
      }
      if ((await this.repo.countNodesIn(id, manager)) > 0) {
        throw new AppException(NodeError.LOCATION_HAS_NODES);
      }
      await this.repo.deleteLocation(id, manager);
      await this.audit.record(manager, actor, {
        action: 'location.deleted',
        targetType: 'location',
        targetId: id,
        changes: { before: pick(location, FIELDS) },
      });
    });
  }
}
