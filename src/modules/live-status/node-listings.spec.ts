import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { SharedRedis } from 'src/common/redis/shared-redis';
import { AppConfigService } from 'src/config/app-config.service';
import { DaemonGateway, DaemonNode, DaemonServerDetails } from 'src/modules/daemon-gateway/daemon.gateway';
import { NodeListings } from 'src/modules/live-status/node-listings';
import { strictMock } from 'test/utils/strict-mock';

const node = { id: '7' } as DaemonNode;
const config = strictMock<AppConfigService>('config', { liveStatus: { intervalMs: 1000, timeoutMs: 500, maxSocketsPerUser: 5 } });
const listed = new Map<string, DaemonServerDetails>([['uuid-1', { state: 'running' } as DaemonServerDetails]]);

describe('NodeListings', () => {
  afterEach(() => jest.restoreAllMocks());

  it('should ask the node itself at once, taking no lease, while Redis is not ready', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const listServers = jest.fn().mockResolvedValue(listed);
    // A client that is reconnecting: any command (the lease's eval, a subscribe) would wait out ioredis's retries.
    const client = strictMock<Redis>('redis', { status: 'reconnecting' });
    const redis = new SharedRedis(strictMock<AppConfigService>('config', { rateLimit: { enabled: true, redisUrl: 'redis://127.0.0.1:1' } }));
    jest.spyOn(redis, 'client').mockResolvedValue(client);
    const sut = new NodeListings(strictMock<DaemonGateway>('daemon', { listServers }), config, redis);

    await expect(sut.list(node)).resolves.toEqual({ servers: listed });
    expect(listServers).toHaveBeenCalledTimes(1);
    expect(warn).not.toHaveBeenCalled();
  });
});
