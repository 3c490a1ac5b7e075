import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { Page, paginated, Paginated } from 'src/common/http/pagination';
import { AuditService, changedFields, pick } from 'src/modules/audit/audit.service';
import { CreateEggDto, UpdateEggDto } from 'src/modules/eggs/dto/egg.dto';
import { EggListItemDto, EggResponseDto, toEggListItem, toEggResponse } from 'src/modules/eggs/dto/egg-response.dto';
import { DockerImage, EggEntity } from 'src/modules/eggs/egg.entity';
import { EggError } from 'src/modules/eggs/eggs.errors';
import { EggsRepository } from 'src/modules/eggs/eggs.repository';
import { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import { NestEntity } from 'src/modules/eggs/nest.entity';

/** The egg fields the audit log compares. */
const EGG_FIELDS = [
  'nestId',
  'name',
  'description',
  'author',
  'dockerImage',
  'dockerImages',
  'startup',
  'features',
  'fileDenylist',
  'configFiles',
  'configStartup',
  'configStop',
  'configLogs',
  'scriptContainer',
  'scriptEntry',
  'scriptInstall',
  'copyScriptFrom',
  'updateUrl',
  'forceOutgoingIp',
] as const satisfies readonly (keyof EggEntity)[];

/** The default image is always one of the selectable images: it is added first when missing. */
const withDefaultImage = (dockerImage: string, images: DockerImage[]): DockerImage[] =>
  images.some((i) => i.image === dockerImage) ? images : [{ name: dockerImage, image: dockerImage }, ...images];

@Injectable()
export class EggsService {
  constructor(
    private readonly repo: EggsRepository,
    private readonly audit: AuditService,
  ) {}

  async list(nestId: string | undefined, page: Page): Promise<Paginated<EggListItemDto>> {
    const [rows, total] = await this.repo.findEggPage(nestId, page.skip, page.perPage);
    return paginated(rows.map(toEggListItem), total, page);
  }

  /** How many eggs and nests the panel holds. */
  async counts(): Promise<{ eggs: number; nests: number }> {
    const [eggs, nests] = await Promise.all([this.repo.countEggs(), this.repo.countNests()]);
    return { eggs, nests };
  }

  async getResponse(id: string, manager?: EntityManager): Promise<EggResponseDto> {
    const egg = await this.get(id, manager);
    return toEggResponse(egg, egg.nest, await this.repo.findVariables(id, manager));
  }

  /** Nests and eggs by their integer ids (the Pterodactyl layer), null when there is none. */
  findNestByIntId(intId: number): Promise<NestEntity | null> {
    return this.repo.findNestByIntId(intId);
  }

  /** A page of nests in integer id order, and how many there are. */
  nestPage(page: Page): Promise<[NestEntity[], number]> {
    return this.repo.findNestPageByIntId(page.skip, page.perPage);
  }

  eggsOfNest(nestId: string): Promise<EggEntity[]> {
    return this.repo.findEggsOfNest(nestId);
  }

  findEggByIntId(intId: number): Promise<(EggEntity & { nest: NestEntity }) | null> {
    return this.repo.findEggByIntId(intId);
  }

  /** An egg's variables, in their order; with `manager`, inside the caller's transaction. */
  variablesOf(eggId: string, manager?: EntityManager): Promise<EggVariableEntity[]> {
    return this.repo.findVariables(eggId, manager);
  }

  /** The variables of these eggs, in one query, by egg id (an egg without any is absent). */
  async variablesOfEggs(eggIds: string[]): Promise<Map<string, EggVariableEntity[]>> {
    const byEgg = new Map<string, EggVariableEntity[]>();
    for (const v of await this.repo.findVariablesOfEggs(eggIds)) {
      const list = byEgg.get(v.eggId);
      if (list) {
        list.push(v);
      } else {
        byEgg.set(v.eggId, [v]);
      }
    }
    return byEgg;
  }

  /** These eggs (each with its nest), in one query, by id. */
  async findEggs(ids: string[]): Promise<Map<string, EggEntity & { nest: NestEntity }>> {
    return new Map((await this.repo.findEggsByIds(ids)).map((egg) => [egg.id, egg]));
  }

  /** The egg (with its nest) or null, for other modules (a new server's egg, a copied install script). */
  findEgg(id: string, manager?: EntityManager): Promise<(EggEntity & { nest: NestEntity }) | null> {
    return this.repo.findEgg(id, manager);
  }

  async get(id: string, manager?: EntityManager): Promise<EggEntity & { nest: NestEntity }> {
    const egg = await this.repo.findEgg(id, manager);
    if (!egg) {
      throw new AppException(EggError.NOT_FOUND);
    }
    return egg;
  }

  create(dto: CreateEggDto, actor: Actor): Promise<EggResponseDto> {
    return this.repo.transaction(async (manager) => {
      await this.requireNest(dto.nestId, manager);
      if (dto.copyScriptFrom) {
        await this.checkScriptSource(dto.copyScriptFrom, dto.nestId, undefined, manager);
      }
      const egg = await this.repo.saveEgg(
        {
          ...dto,
          author: dto.author ?? actor.email,
          description: dto.description ?? null,
          features: dto.features === undefined ? null : dto.features,
          dockerImages: withDefaultImage(dto.dockerImage, dto.dockerImages ?? []),
          fileDenylist: dto.fileDenylist ?? [],
          forceOutgoingIp: dto.forceOutgoingIp ?? false,
        },
        manager,
      );
      await this.audit.record(manager, actor, {
        action: 'egg.created',
        targetType: 'egg',
        targetId: egg.id,
        changes: { after: pick(egg, EGG_FIELDS) },
      });
      return this.getResponse(egg.id, manager);
    });
  }

  update(id: string, dto: UpdateEggDto, actor: Actor): Promise<EggResponseDto> {
    return this.repo.transaction(async (manager) => {
      const { nest: _nest, ...before } = await this.get(id, manager);
      const next = { ...before, ...dto };
      if (dto.nestId !== undefined && dto.nestId !== before.nestId) {
        await this.requireNest(dto.nestId, manager);
        // Its dependents would be left copying from an egg of another nest.
        if ((await this.repo.countScriptDependents(id, manager)) > 0) {
          throw new AppException(EggError.HAS_DEPENDENTS);
        }
      }
      if (next.copyScriptFrom) {
        await this.checkScriptSource(next.copyScriptFrom, next.nestId, id, manager);
      }
      if (dto.dockerImage !== undefined || dto.dockerImages !== undefined) {
        next.dockerImages = withDefaultImage(next.dockerImage, next.dockerImages);
      }
      const after = await this.repo.saveEgg(next, manager);
      const changes = changedFields(before, after, EGG_FIELDS);
      if (Object.keys(changes.after).length > 0) {
        await this.audit.record(manager, actor, { action: 'egg.updated', targetType: 'egg', targetId: id, changes });
      }
      return this.getResponse(id, manager);
    });
  }

  delete(id: string, actor: Actor): Promise<void> {
    return this.repo.transaction(async (manager) => {
      await this.repo.lockEgg(id, manager);
      const egg = await this.get(id, manager);
      await this.repo.deleteEgg(id, manager);
      await this.audit.record(manager, actor, {
        action: 'egg.deleted',
        targetType: 'egg',
        targetId: id,
        changes: { before: pick(egg, EGG_FIELDS) },
      });
    });
  }

  private async requireNest(nestId: string, manager: EntityManager): Promise<void> {
    if (!(await this.repo.findNest(nestId, manager))) {
      throw new AppException(EggError.NEST_NOT_FOUND);
    }
  }

  /** Same nest, not itself, and a source that has its own script (no chains). */
  private async checkScriptSource(sourceId: string, nestId: string, selfId: string | undefined, manager: EntityManager): Promise<void> {
    const source = sourceId === selfId ? null : await this.repo.findEgg(sourceId, manager);
    if (!source || source.nestId !== nestId || source.copyScriptFrom !== null) {
      throw new AppException(EggError.SCRIPT_SOURCE_INVALID);
    }
    if (selfId !== undefined && (await this.repo.countScriptDependents(selfId, manager)) > 0) {
      throw new AppException(EggError.SCRIPT_SOURCE_INVALID, {
        message: 'This egg is itself a script source for other eggs, so it cannot copy its script from another egg',
      });
    }
  }
}
