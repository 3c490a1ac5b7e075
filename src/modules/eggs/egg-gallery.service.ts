import { Injectable } from '@nestjs/common';
import { Clock } from 'src/common/clock';
import { AppException } from 'src/common/errors/app.exception';
import { AppConfigService } from 'src/config/app-config.service';
import { EggGalleryEntryDto } from 'src/modules/eggs/dto/egg-gallery.dto';
import { EggTransferService } from 'src/modules/eggs/egg-transfer.service';
import { EggsRepository } from 'src/modules/eggs/eggs.repository';
import { parsePtdl } from 'src/modules/eggs/ptdl';

type Described = Pick<EggGalleryEntryDto, 'name' | 'description' | 'author' | 'error'>;

/** A document read well is kept this long; a failure only briefly, so a fixed address shows soon. */
const FRESH_MS = 10 * 60_000;
const FAILED_MS = 60_000;

/**
 * The egg gallery: the documents at EGG_GALLERY_URLS, fetched by the panel (under the egg-import
 * address rules) and described by name, description and author, so an administrator sees what an
 * egg is before importing it with POST /api/admin/eggs/import-url.
 */
@Injectable()
export class EggGalleryService {
  private readonly cache = new Map<string, { until: number; entry: Promise<Described> }>();

  constructor(
    private readonly config: AppConfigService,
    private readonly transfer: EggTransferService,
    private readonly repo: EggsRepository,
    private readonly clock: Clock,
  ) {}

  async list(): Promise<EggGalleryEntryDto[]> {
    const { urls } = this.config.eggGallery;
    const [described, installed] = await Promise.all([Promise.all(urls.map((url) => this.describe(url))), this.repo.findEggsByUpdateUrls(urls)]);
    return urls.map((url, i) => ({
      url,
      ...described[i],
      installed: installed
        .filter((egg) => egg.updateUrl === url)
        .map((egg) => ({ id: egg.id, name: egg.name, nestId: egg.nestId, nestName: egg.nest.name })),
    }));
  }

  private describe(url: string): Promise<Described> {
    const now = this.clock.now().getTime();
    const cached = this.cache.get(url);
    if (cached && cached.until > now) {
      return cached.entry;
    }
    const entry = this.read(url);
    this.cache.set(url, { until: now + FRESH_MS, entry });
    void entry.then((e) => e.error && this.cache.set(url, { until: now + FAILED_MS, entry }));
    return entry;
  }

  private async read(url: string): Promise<Described> {
    try {
      const { egg } = parsePtdl(await this.transfer.fetchDocument(url));
      return { name: egg.name, description: egg.description, author: egg.author, error: null };
    } catch (e) {
      const error = e instanceof AppException ? { code: e.code, message: withDetails(e) } : { code: 'INTERNAL_ERROR', message: 'The document could not be read' };
      return { name: null, description: null, author: null, error };
    }
  }
}

/** A refusal with the fields it names (a document with missing or mistyped fields), the first three. */
const withDetails = (e: AppException): string => {
  const details = Array.isArray(e.details) ? (e.details as { message?: unknown }[]).slice(0, 3).map((d) => String(d.message)) : [];
  return details.length > 0 ? `${e.message}: ${details.join('; ')}` : e.message;
};
