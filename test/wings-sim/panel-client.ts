// The one client for Wings → panel callbacks (docs/wings.md#callbacks). Never throws into timers:
// callers get a typed PanelRequestError/PanelTransportError and decide what Wings would do.
import {
  parseInstallationScript,
  parsePanelConfiguration,
  isRecord,
  asString,
} from 'test/wings-sim/config';
import { InstallationScript, PanelServerConfiguration } from 'test/wings-sim/types';

export const WINGS_VERSION = '1.11.11-sim';

interface PanelClientOptions {
  panelUrl: () => string;
  tokenId: () => string;
  token: () => string;
  timeoutMs: number;
  retryBudgetMs: number;
  /** Fault switch: send a wrong secret so the panel's daemon guard should refuse us. */
  wrongToken: () => boolean;
}

/** The panel answered with a status ≥ 300 (Wings parses `{"errors":[{code,status,detail}]}`). */
export class PanelRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(`Error response from Panel: ${code}: ${detail} (HTTP/${status})`);
  }
}

/** The request never produced a response (refused, reset, timed out). */
class PanelTransportError extends Error {}

interface PanelCall {
  method: string;
  path: string;
  status: number | null;
  time: Date;
}

export class PanelClient {
  /** Every callback attempt, for tests that want to see what the simulator sent. */
  readonly calls: PanelCall[] = [];

  constructor(private readonly opts: PanelClientOptions) {}

  private async requestOnce(method: string, path: string, body: string | undefined): Promise<Response> {
    const base = this.opts.panelUrl().replace(/\/+$/, '') + '/api/remote';
    const secret = this.opts.wrongToken() ? `${this.opts.token()}-wrong` : this.opts.token();
    const call: PanelCall = { method, path, status: null, time: new Date() };
    this.calls.push(call);
    try {
      const res = await fetch(base + path, {
        method,
        body,
        headers: {
          'User-Agent': `Pterodactyl Wings/v${WINGS_VERSION} (id:${this.opts.tokenId()})`,
          Accept: 'application/vnd.pterodactyl.v1+json',
          'Content-Type': 'application/json',
          Authorization: `Bearer ${this.opts.tokenId()}.${secret}`,
        },
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      call.status = res.status;
      return res;
    } catch (err) {
      throw new PanelTransportError(err instanceof Error ? err.message : String(err));
    }
  }

  private static async toRequestError(res: Response): Promise<PanelRequestError> {
    let code = '_MissingResponseCode';
    let detail = 'No error response returned from API endpoint.';
    try {
      const parsed: unknown = await res.json();
      const first: unknown = isRecord(parsed) && Array.isArray(parsed.errors) ? parsed.errors[0] : undefined;
      if (isRecord(first)) {
        code = asString(first.code, code);
        detail = asString(first.detail, detail);
      }
    } catch {
      // Wings ignores an unparsable error body and keeps its defaults.
    }
    return new PanelRequestError(res.status, code, detail);
  }

  /** 2xx → response; 4xx → final error; 5xx/transport → retried with backoff within the budget. */
  async request(method: string, path: string, data?: unknown): Promise<Response> {
    // Wings' Post marshals its argument; "no body" calls send the literal JSON `null`.
    const body = method === 'GET' ? undefined : JSON.stringify(data ?? null);
    const deadline = Date.now() + this.opts.retryBudgetMs;
    let delay = 100;
    for (;;) {
      let failure: Error;
      try {
        const res = await this.requestOnce(method, path, body);
        if (res.status >= 200 && res.status < 300) {
          return res;
        }
        failure = await PanelClient.toRequestError(res);
        if (res.status >= 400 && res.status < 500) {
          throw failure;
        }
      } catch (err) {
        if (err instanceof PanelRequestError && err.status < 500) {
          throw err;
        }
        failure = err instanceof Error ? err : new PanelTransportError(String(err));
      }
      if (Date.now() + delay > deadline) {
        throw failure;
      }
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 12_000);
    }
  }

  async getServerConfiguration(uuid: string): Promise<PanelServerConfiguration> {
    const res = await this.request('GET', `/servers/${uuid}`);
    return parsePanelConfiguration(await res.json());
  }

  async getInstallationScript(uuid: string): Promise<InstallationScript> {
    const res = await this.request('GET', `/servers/${uuid}/install`);
    return parseInstallationScript(await res.json());
  }

  async setInstallationStatus(uuid: string, successful: boolean, reinstall: boolean): Promise<void> {
    await this.request('POST', `/servers/${uuid}/install`, { successful, reinstall });
  }

  /** GetBackupRemoteUploadURLs: one presigned PUT URL a part of an archive of `size` bytes (S3 adapter). */
  async getBackupRemoteUploadUrls(backup: string, size: number): Promise<{ parts: string[]; partSize: number }> {
    const res = await this.request('GET', `/backups/${backup}?size=${size}`);
    const body = (await res.json()) as { parts?: unknown; part_size?: unknown };
    if (!Array.isArray(body.parts) || !body.parts.every((u) => typeof u === 'string') || typeof body.part_size !== 'number') {
      throw new PanelTransportError('malformed upload URLs from the panel');
    }
    return { parts: body.parts, partSize: body.part_size };
  }

  async setBackupStatus(
    backup: string,
    data: { checksum: string; checksum_type: string; size: number; successful: boolean; parts: { etag: string; part_number: number }[] | null },
  ): Promise<void> {
    await this.request('POST', `/backups/${backup}`, data);
  }

  async sendRestorationStatus(backup: string, successful: boolean): Promise<void> {
    await this.request('POST', `/backups/${backup}/restore`, { successful });
  }

  /** One page of `GET /servers`; Wings starts at page=0. */
  async getServers(page: number, perPage: number): Promise<{ data: unknown[]; lastPage: number }> {
    const res = await this.request('GET', `/servers?page=${page}&per_page=${perPage}`);
    const body: unknown = await res.json();
    const data = isRecord(body) && Array.isArray(body.data) ? body.data : [];
    const meta = isRecord(body) && isRecord(body.meta) ? body.meta : {};
    return { data, lastPage: typeof meta.last_page === 'number' ? meta.last_page : 1 };
  }

  async resetServersState(): Promise<void> {
    await this.request('POST', '/servers/reset');
  }
}
