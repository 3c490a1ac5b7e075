import { Injectable } from '@nestjs/common';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { AuditService } from 'src/modules/audit/audit.service';
import { EggResponseDto } from 'src/modules/eggs/dto/egg-response.dto';
import { EggUpdatePreviewDto } from 'src/modules/eggs/dto/egg-gallery.dto';
import { diffEgg, EggDiff } from 'src/modules/eggs/egg-diff';
import { EggEntity } from 'src/modules/eggs/egg.entity';
import { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import { EggTransferService } from 'src/modules/eggs/egg-transfer.service';
import { EggError } from 'src/modules/eggs/eggs.errors';
import { EggsRepository } from 'src/modules/eggs/eggs.repository';
import { EggsService } from 'src/modules/eggs/eggs.service';
import { parsePtdl } from 'src/modules/eggs/ptdl';

type Parsed = ReturnType<typeof parsePtdl>;

/** Updates an installed egg from the document at its update URL, as Pterodactyl's "update from URL" does. */
@Injectable()
export class EggUpdateService {
  constructor(
    private readonly repo: EggsRepository,
    private readonly eggs: EggsService,
    private readonly transfer: EggTransferService,
    private readonly audit: AuditService,
  ) {}

  /** The field-by-field differences between the egg and its update URL's document; changes nothing. */
  async preview(id: string): Promise<EggUpdatePreviewDto> {
    const { egg, next } = await this.load(id);
    const diff = await this.diff(egg, await this.repo.findVariables(id), next);
    return { url: egg.updateUrl!, upToDate: diff.fields.length === 0 && diff.variables.length === 0, ...diff };
  }

  /**
   * Fetches the document again and applies it: egg fields replaced, variables matched by environment
   * name (updated, added, and removed when the document no longer has them), one audit entry.
   */
  async apply(id: string, actor: Actor): Promise<EggResponseDto> {
    const { egg: fetchedFor, next } = await this.load(id);
    return this.repo.transaction(async (manager) => {
      await this.repo.lockEgg(id, manager);
      const egg = await this.eggs.get(id, manager);
      if (egg.updateUrl !== fetchedFor.updateUrl) {
        throw new AppException(EggError.UPDATE_URL_CHANGED);
      }
      const variables = await this.repo.findVariables(id, manager);
      const diff = await this.diff(egg, variables, next);
      // The default image stays when the document still offers it.
      const dockerImage = next.egg.dockerImages.some((i) => i.image === egg.dockerImage) ? egg.dockerImage : next.egg.dockerImage;
      const { nest: _nest, ...row } = egg;
      await this.repo.saveEgg({ ...row, ...next.egg, dockerImage, updateUrl: next.egg.updateUrl ?? egg.updateUrl, copyScriptFrom: null }, manager);
      const byEnv = new Map(variables.map((v) => [v.envVariable, v]));
      const kept = new Set(next.variables.map((v) => v.envVariable));
      for (const old of variables.filter((v) => !kept.has(v.envVariable))) {
        await this.repo.deleteVariable(old.id, manager);
      }
      for (const [position, v] of next.variables.entries()) {
        await this.repo.saveVariable({ ...byEnv.get(v.envVariable), ...v, eggId: id, position }, manager);
      }
      if (diff.fields.length > 0 || diff.variables.length > 0) {
        await this.audit.record(manager, actor, {
          action: 'egg.updated_from_url',
          targetType: 'egg',
          targetId: id,
          changes: {
            before: Object.fromEntries(diff.fields.map((f) => [f.field, f.before])),
            after: {
              ...Object.fromEntries(diff.fields.map((f) => [f.field, f.after])),
              source: egg.updateUrl,
              variables: diff.variables.map((v) => ({ envVariable: v.envVariable, change: v.change })),
            },
          },
        });
      }
      return this.eggs.getResponse(id, manager);
    });
  }

  private async load(id: string): Promise<{ egg: EggEntity; next: Parsed }> {
    const egg = await this.eggs.get(id);
    if (!egg.updateUrl) {
      throw new AppException(EggError.NO_UPDATE_URL);
    }
    return { egg, next: parsePtdl(await this.transfer.fetchDocument(egg.updateUrl)) };
  }

  private async diff(egg: EggEntity, variables: EggVariableEntity[], next: Parsed): Promise<EggDiff> {
    const source = egg.copyScriptFrom ? await this.eggs.findEgg(egg.copyScriptFrom) : null;
    return diffEgg(egg, variables, next, source?.name ?? null);
  }
}
