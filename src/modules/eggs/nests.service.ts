import { Injectable } from '@nestjs/common';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { Page, paginated, Paginated } from 'src/common/http/pagination';
import { AuditService, changedFields, pick } from 'src/modules/audit/audit.service';
import { CreateNestDto, UpdateNestDto } from 'src/modules/eggs/dto/nest.dto';
import { NestResponseDto, toNestResponse } from 'src/modules/eggs/dto/egg-response.dto';
import { EggError } from 'src/modules/eggs/eggs.errors';
import { EggsRepository } from 'src/modules/eggs/eggs.repository';
import { NestEntity } from 'src/modules/eggs/nest.entity';

const NEST_FIELDS = ['name', 'description', 'author'] as const;

@Injectable()
export class NestsService {
  constructor(
    private readonly repo: EggsRepository,
    private readonly audit: AuditService,
  ) {}

  async list(page: Page): Promise<Paginated<NestResponseDto>> {
    const [rows, total] = await this.repo.findNestPage(page.skip, page.perPage);
    return paginated(rows.map(toNestResponse), total, page);
  }

  async get(id: string): Promise<NestEntity> {
    const nest = await this.repo.findNest(id);
    if (!nest) {
      throw new AppException(EggError.NEST_NOT_FOUND);
    }
    return nest;
  }

  create(dto: CreateNestDto, actor: Actor): Promise<NestEntity> {
    return this.repo.transaction(async (manager) => {
      const nest = await this.repo.saveNest({ name: dto.name, description: dto.description ?? null, author: dto.author ?? actor.email }, manager);
      await this.audit.record(manager, actor, {
        action: 'nest.created',
        targetType: 'nest',
        targetId: nest.id,
        changes: { after: pick(nest, NEST_FIELDS) },
      });
      return nest;
    });
  }

  update(id: string, dto: UpdateNestDto, actor: Actor): Promise<NestEntity> {
    return this.repo.transaction(async (manager) => {
      const before = await this.repo.findNest(id, manager);
      if (!before) {
        throw new AppException(EggError.NEST_NOT_FOUND);
      }
      const after = await this.repo.saveNest({ ...before, ...dto }, manager);
      const changes = changedFields(before, after, NEST_FIELDS);
      if (Object.keys(changes.after).length > 0) {
        await this.audit.record(manager, actor, { action: 'nest.updated', targetType: 'nest', targetId: id, changes });
      }
      return after;
    });
  }

  delete(id: string, actor: Actor): Promise<void> {
    return this.repo.transaction(async (manager) => {
      const nest = await this.repo.findNest(id, manager);
      if (!nest) {
        throw new AppException(EggError.NEST_NOT_FOUND);
      }
      if ((await this.repo.countEggsInNest(id, manager)) > 0) {
        throw new AppException(EggError.NEST_HAS_EGGS);
      }
      await this.repo.deleteNest(id, manager);
      await this.audit.record(manager, actor, {
        action: 'nest.deleted',
        targetType: 'nest',
        targetId: id,
        changes: { before: pick(nest, NEST_FIELDS) },
      });
    });
  }
}
