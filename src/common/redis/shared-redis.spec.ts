import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { SharedRedis } from 'src/common/redis/shared-redis';
import { AppConfigService } from 'src/config/app-config.service';
import { strictMock } from 'test/utils/strict-mock';

const withRedis = (status: Redis['status']): { shared: SharedRedis; client: Redis } => {
  const shared = new SharedRedis(strictMock<AppConfigService>('config', { rateLimit: { enabled: true, redisUrl: 'redis://127.0.0.1:1' } }));
  const client = strictMock<Redis>('redis', { status });
  jest.spyOn(shared, 'client').mockResolvedValue(client);
  return { shared, client };
};

describe('SharedRedis.ready', () => {
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('should give the connection only while it is ready', async () => {
    expect(await withRedis('ready').shared.ready()).not.toBeNull();
    expect(await withRedis('reconnecting').shared.ready()).toBeNull();
    expect(await withRedis('connecting').shared.ready()).toBeNull();
  });

  it('should give nothing without REDIS_URL, connecting nowhere', async () => {
    const shared = new SharedRedis(strictMock<AppConfigService>('config', { rateLimit: { enabled: true, redisUrl: undefined } }));
    const client = jest.spyOn(shared, 'client');
    expect(await shared.ready()).toBeNull();
    expect(client).not.toHaveBeenCalled();
  });

  it('should leave Redis alone for 5 s after a command failed, saying so once', async () => {
    jest.useFakeTimers({ now: new Date('2026-11-29T12:00:00Z') });
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { shared, client } = withRedis('ready');
    shared.failed(new Error('Command timed out'));
    shared.failed(new Error('Command timed out'));
    expect(warn.mock.calls).toEqual([['Redis: Command timed out; each process does without it for 5 s']]);
    expect(await shared.ready()).toBeNull();
    jest.setSystemTime(new Date('2026-11-29T12:00:04.900Z'));
    expect(await shared.ready()).toBeNull();
    jest.setSystemTime(new Date('2026-11-29T12:00:05Z'));
    expect(await shared.ready()).toBe(client);
  });
});
