import { createServer } from 'node:net';
import { Logger } from '@nestjs/common';
import { ChangeFeed } from 'src/common/hot-cache/change-feed';
import { HotCaches } from 'src/common/hot-cache/hot-caches';
import { AppConfigService } from 'src/config/app-config.service';

const closedPort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const configFor = (env: Record<string, string>) => AppConfigService.fromEnv({ APP_KEY: 'k'.repeat(40), NODE_ENV: 'test', ...env });

/** Stores a value in the API key cache the way a request would, and says whether it is then served. */
const cachesServe = (caches: HotCaches): boolean => {
  const key = { id: '1', userId: '1', user: { id: '1' } } as never;
  caches.apiKeys.set('hash', key, [], caches.apiKeys.ticket());
  return caches.apiKeys.get('hash') !== undefined;
};

describe(ChangeFeed.name, () => {
  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('should keep the caches off while PostgreSQL cannot be reached, and stop retrying on shutdown', async () => {
    const config = configFor({ DATABASE_URL: `postgres://nobody@127.0.0.1:${await closedPort()}/none` });
    const caches = new HotCaches(config);
    const sut = new ChangeFeed(config, caches, { reconnectDelaysMs: [60_000] });
    await sut.onApplicationBootstrap();
    expect(sut.state).toBe('down');
    expect(cachesServe(caches)).toBe(false);
    await sut.onApplicationShutdown();
    expect(sut.state).toBe('off');
  });

  it('should stay off on the embedded database, where the caches are on without it', async () => {
    const config = configFor({ PGLITE_DIR: 'memory://' });
    const caches = new HotCaches(config);
    const sut = new ChangeFeed(config, caches, {});
    await sut.onApplicationBootstrap();
    expect(sut.state).toBe('off');
    expect(cachesServe(caches)).toBe(true);
  });

  it('should stay off, and the caches too, with HOT_CACHE_TTL_SECONDS=0', async () => {
    const config = configFor({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', HOT_CACHE_TTL_SECONDS: '0' });
    const caches = new HotCaches(config);
    const sut = new ChangeFeed(config, caches, {});
    await sut.onApplicationBootstrap();
    expect(sut.state).toBe('off');
    caches.setLive(true);
    expect(cachesServe(caches)).toBe(false);
  });
});

describe(HotCaches.name, () => {
  it('should empty every cache when the feed goes down and again when it comes back', () => {
    const caches = new HotCaches(configFor({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }));
    caches.setLive(true);
    expect(cachesServe(caches)).toBe(true);
    caches.setLive(false);
    caches.setLive(true);
    expect(caches.apiKeys.get('hash')).toBeUndefined();
  });

  it('should refuse a fill that began before the feed went down, even once it is back', () => {
    const caches = new HotCaches(configFor({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }));
    caches.setLive(true);
    const ticket = caches.servers.ticket();
    caches.setLive(false);
    caches.setLive(true);
    expect(caches.servers.set('uuid', { id: '1' } as never, ['server:1'], ticket)).toBe(false);
  });
});
