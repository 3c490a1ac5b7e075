import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { Clock } from 'src/common/clock';
import { textFaults, textRefusal } from 'src/common/http/hostile-input';
import { AppException } from 'src/common/errors/app.exception';
import { fetchPublic, OutboundPolicy } from 'src/common/http/outbound-url';
import { AuditService } from 'src/modules/audit/audit.service';
import { EggResponseDto } from 'src/modules/eggs/dto/egg-response.dto';
import { EggError } from 'src/modules/eggs/eggs.errors';
import { EggsRepository } from 'src/modules/eggs/eggs.repository';
import { EggsService } from 'src/modules/eggs/eggs.service';
import { parsePtdl, PtdlDocument, serializePtdl, toPtdl } from 'src/modules/eggs/ptdl';

const EGG_IMPORT_MAX_BYTES = 1024 * 1024;
const EGG_IMPORT_TIMEOUT_MS = 10_000;

@Injectable()
export class EggTransferService {
  constructor(
    private readonly repo: EggsRepository,
    private readonly eggs: EggsService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    @Inject(OutboundPolicy) private readonly outbound: OutboundPolicy,
  ) {}

  /** The PTDL_v2 document, with the install script resolved through copyScriptFrom. */
  async export(id: string): Promise<{ document: PtdlDocument; text: string; fileName: string }> {
    const egg = await this.eggs.get(id);
    const source = egg.copyScriptFrom ? await this.eggs.get(egg.copyScriptFrom) : egg;
    const resolved = {
      ...egg,
      scriptInstall: source.scriptInstall,
      scriptContainer: source.scriptContainer,
      scriptEntry: source.scriptEntry,
    };
    const document = toPtdl(resolved, await this.repo.findVariables(id), this.clock.now());
    const slug = egg.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'egg';
    return { document, text: serializePtdl(document), fileName: `egg-${slug}.json` };
  }

  /** Creates an egg and its variables from a PTDL_v1/v2 document, all or nothing. */
  import(nestId: string, document: unknown, actor: Actor, source?: string): Promise<EggResponseDto> {
    const { egg, variables } = parsePtdl(document);
    return this.repo.transaction(async (manager: EntityManager) => {
      if (!(await this.repo.findNest(nestId, manager))) {
        throw new AppException(EggError.NEST_NOT_FOUND);
      }
      const saved = await this.repo.saveEgg({ ...egg, nestId, copyScriptFrom: null }, manager);
      for (const [position, variable] of variables.entries()) {
        await this.repo.saveVariable({ ...variable, eggId: saved.id, position }, manager);
      }
      await this.audit.record(manager, actor, {
        action: 'egg.imported',
        targetType: 'egg',
        targetId: saved.id,
        changes: { after: { nestId, name: saved.name, variables: variables.map((v) => v.envVariable), ...(source ? { source } : {}) } },
      });
      return this.eggs.getResponse(saved.id, manager);
    });
  }

  /**
   * Fetches a document from a public http(s) URL (size-capped, never a private address) and imports it.
   * A document without its own `meta.update_url` keeps this URL as the egg's update URL, so the egg
   * can later be updated from where it came (Pterodactyl's stock eggs carry none).
   */
  async importFromUrl(nestId: string, url: string, actor: Actor): Promise<EggResponseDto> {
    const document = await this.fetchDocument(url);
    const withSource = isDocument(document) && isDocument(document.meta) && typeof document.meta.update_url !== 'string' ? { ...document, meta: { ...document.meta, update_url: url } } : document;
    return this.import(nestId, withSource, actor, url);
  }

  /** The JSON document at a public http(s) URL, fetched under the outbound address rules. */
  async fetchDocument(url: string): Promise<unknown> {
    const { body } = await fetchPublic(url, {
      policy: this.outbound,
      maxBytes: EGG_IMPORT_MAX_BYTES,
      timeoutMs: EGG_IMPORT_TIMEOUT_MS,
      accept: 'application/json',
    });
    let document: unknown;
    try {
      document = JSON.parse(body.toString('utf8'));
    } catch {
      throw new AppException(EggError.IMPORT_NOT_JSON);
    }
    // A request body is checked for these as it is parsed (src/common/http/fastify.ts); a fetched one here.
    const faults = textFaults(document);
    if (faults.length > 0) {
      throw textRefusal(faults);
    }
    return document;
  }
}

const isDocument = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
