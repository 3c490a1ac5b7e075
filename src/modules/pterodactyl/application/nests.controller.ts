import { Controller, Get, Param, Query } from '@nestjs/common';
import { AppConfigService } from 'src/config/app-config.service';
import { HttpRequest } from 'src/common/http/http';
import { AppException } from 'src/common/errors/app.exception';
import type { EggEntity } from 'src/modules/eggs/egg.entity';
import { EggsService } from 'src/modules/eggs/eggs.service';
import type { NestEntity } from 'src/modules/eggs/nest.entity';
import { keyAllows, ResolvedPterodactylKey } from 'src/modules/pterodactyl/keys/pterodactyl-keys.service';
import { eggItem, eggVariableItem, nestItem } from 'src/modules/pterodactyl/application/transformers';
import { FractalItem, FractalList, FractalPage, includesOf, list, NULL_RESOURCE, page, pageOf, withRelationships } from 'src/modules/pterodactyl/common/fractal';
import { PterodactylError } from 'src/modules/pterodactyl/common/pterodactyl-errors';
import { applicationPaths, ApplicationRoute, PterodactylCaller, PterodactylController, PterodactylRequestOf } from 'src/modules/pterodactyl/common/pterodactyl-route';

/** An integer id in a path; anything else is a 404, as an unknown record. */
const intIdOf = (value: string): number => {
  if (!/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647) {
    throw new AppException(PterodactylError.NOT_FOUND);
  }
  return Number(value);
};

const NEST_INCLUDES = ['eggs'] as const;
const EGG_INCLUDES = ['nest', 'variables'] as const;

/** Pterodactyl's nests and their eggs, read-only (routes/api-application.php, /nests). */
@PterodactylController()
@Controller(applicationPaths('nests'))
export class ApplicationNestsController {
  constructor(
    private readonly eggs: EggsService,
    private readonly config: AppConfigService,
  ) {}

  @Get()
  @ApplicationRoute('nests', 'read')
  async list(@Query() query: Record<string, unknown>, @PterodactylCaller() key: ResolvedPterodactylKey, @PterodactylRequestOf() req: HttpRequest): Promise<FractalPage> {
    const at = pageOf(query);
    const [nests, total] = await this.eggs.nestPage(at);
    const includes = includesOf(query, NEST_INCLUDES);
    return page(await Promise.all(nests.map((n) => this.nestView(n, includes, key))), total, at, req, this.config.http.appUrl);
  }

  @Get(':nest')
  @ApplicationRoute('nests', 'read')
  async view(@Param('nest') nest: string, @Query() query: Record<string, unknown>, @PterodactylCaller() key: ResolvedPterodactylKey): Promise<FractalItem> {
    return this.nestView(await this.nest(nest), includesOf(query, NEST_INCLUDES), key);
  }

  /** Every egg of the nest (Pterodactyl does not page them). */
  @Get(':nest/eggs')
  @ApplicationRoute('eggs', 'read')
  async eggsOf(@Param('nest') nest: string, @Query() query: Record<string, unknown>, @PterodactylCaller() key: ResolvedPterodactylKey): Promise<FractalList> {
    const found = await this.nest(nest);
    const includes = includesOf(query, EGG_INCLUDES);
    return list(await Promise.all((await this.eggs.eggsOfNest(found.id)).map((e) => this.eggView(e, found, includes, key))));
  }

  @Get(':nest/eggs/:egg')
  @ApplicationRoute('eggs', 'read')
  async egg(@Param('nest') nest: string, @Param('egg') egg: string, @Query() query: Record<string, unknown>, @PterodactylCaller() key: ResolvedPterodactylKey): Promise<FractalItem> {
    const found = await this.nest(nest);
    const e = await this.eggs.findEggByIntId(intIdOf(egg));
    if (!e || e.nestId !== found.id) {
      throw new AppException(PterodactylError.NOT_FOUND);
    }
    return this.eggView(e, found, includesOf(query, EGG_INCLUDES), key);
  }

  private async nest(value: string): Promise<NestEntity> {
    const nest = await this.eggs.findNestByIntId(intIdOf(value));
    if (!nest) {
      throw new AppException(PterodactylError.NOT_FOUND);
    }
    return nest;
  }

  private async nestView(nest: NestEntity, includes: Set<(typeof NEST_INCLUDES)[number]>, key: ResolvedPterodactylKey): Promise<FractalItem> {
    const relationships: Record<string, FractalItem | FractalList> = {};
    if (includes.has('eggs')) {
      relationships.eggs = keyAllows(key.permissions, 'eggs', 'read')
        ? list(await Promise.all((await this.eggs.eggsOfNest(nest.id)).map((e) => this.eggView(e, nest, new Set(), key))))
        : NULL_RESOURCE;
    }
    return withRelationships(nestItem(nest), relationships);
  }

  private async eggView(egg: EggEntity, nest: NestEntity, includes: Set<(typeof EGG_INCLUDES)[number]>, key: ResolvedPterodactylKey): Promise<FractalItem> {
    const source = egg.copyScriptFrom ? await this.eggs.findEgg(egg.copyScriptFrom) : null;
    const relationships: Record<string, FractalItem | FractalList> = {};
    if (includes.has('nest')) {
      relationships.nest = keyAllows(key.permissions, 'nests', 'read') ? nestItem(nest) : NULL_RESOURCE;
    }
    if (includes.has('variables')) {
      relationships.variables = keyAllows(key.permissions, 'eggs', 'read')
        ? list((await this.eggs.variablesOf(egg.id)).map((v) => eggVariableItem(v, egg)))
        : NULL_RESOURCE;
    }
    return withRelationships(eggItem(egg, nest, source?.intId ?? null), relationships);
  }
}
