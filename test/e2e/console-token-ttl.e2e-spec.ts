import jwt from 'jsonwebtoken';
import { WsClient } from 'test/wings-sim/testing/harness';
import { TEST_ORIGIN } from 'test/utils/create-test-app';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { SimPanel, startSimPanel } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');

// CONSOLE_TOKEN_TTL_SECONDS shortens console tokens so a renewal can be watched in seconds
// (the web console's tests do); the daemon warns as the end nears and takes a new token on the same socket.
(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('console token lifetime (%s)', (db) => {
  let p: SimPanel;
  let serverUuid: string;

  beforeAll(async () => {
    p = await startSimPanel(db, { env: { CONSOLE_TOKEN_TTL_SECONDS: '30' } });
    ({ uuid: serverUuid } = await p.createServer());
  });

  afterAll(async () => {
    await p?.close();
  });

  const credentials = async () => (await p.asOwner('get', `/api/client/servers/${serverUuid}/websocket`).expect(200)).body.data as { token: string; socket: string };

  it('should sign console tokens for CONSOLE_TOKEN_TTL_SECONDS, and the daemon should warn and take a new one on the same socket', async () => {
    const first = await credentials();
    const claims = jwt.decode(first.token) as { iat: number; exp: number };
    expect(claims.exp - claims.iat).toBe(30);

    const ws = await WsClient.open(first.socket, TEST_ORIGIN);
    try {
      await ws.auth(first.token);
      // 30 s is under the daemon's 60 s warning threshold: the first expiry check warns.
      await ws.next((m) => m.event === 'token expiring');
      const before = ws.events('auth success').length;
      const second = await credentials();
      expect(second.token).not.toBe(first.token);
      ws.send('auth', second.token);
      await ws.next(() => ws.events('auth success').length === before + 1);
      ws.send('send stats');
      await ws.next((m) => m.event === 'stats');
      expect(ws.events('jwt error')).toEqual([]);
    } finally {
      ws.close();
    }
  });
});
