import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PanelMetrics } from 'src/common/metrics/panel-metrics';
import { DaemonClient } from 'src/modules/daemon-gateway/daemon.client';
import { strictMock } from 'test/utils/strict-mock';

describe('DaemonClient shutdown', () => {
  let node: Server;
  let baseUrl: string;

  beforeAll(async () => {
    // A node that takes every request and never answers.
    node = createServer(() => undefined);
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    node.closeAllConnections();
    await new Promise((resolve) => node.close(resolve));
  });

  it('should cut a request still waiting on a silent node instead of waiting out its timeout', async () => {
    const sut = new DaemonClient(strictMock<PanelMetrics>('metrics', { daemonCall: () => undefined }));
    const target = { nodeId: '1', baseUrl, allowInsecure: false, authorization: 'Bearer a.b' };
    const pending = sut.send(target, { method: 'POST', path: '/api/servers/x/backup', timeoutMs: 10 * 60_000 });
    const outcome = pending.then(
      () => 'answered',
      (e: { code?: string }) => e.code,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));

    await sut.onModuleDestroy();

    await expect(outcome).resolves.not.toBe('answered');
  }, 20_000);
});
