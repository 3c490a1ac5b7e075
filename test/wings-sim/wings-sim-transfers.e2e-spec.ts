import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createInstalledServer, Harness, sign, startHarness, stopHarness, waitFor } from 'test/wings-sim/testing/harness';

// The simulator as both ends of a transfer (docs/wings.md#transfers): two simulators, each with its fake panel.

describe('wings-sim transfers', () => {
  let source: Harness;
  let target: Harness;

  beforeAll(async () => {
    source = await startHarness();
    target = await startHarness();
  });

  afterEach(() => {
    source.sim.resetFaults();
    target.sim.resetFaults();
  });

  afterAll(async () => {
    await stopHarness(source);
    await stopHarness(target);
  });

  const tokenFor = (uuid: string, expiresInS = 900): string => {
    const now = Math.floor(Date.now() / 1000);
    return `Bearer ${sign({ sub: uuid, iat: now, nbf: now - 300, exp: now + expiresInS })}`;
  };

  /** A server on the source with a file, known to the target's panel (which the target asks for its configuration). */
  const serverToMove = async (): Promise<string> => {
    const uuid = await createInstalledServer(source);
    target.panel.addServer(uuid);
    await fsp.writeFile(path.join(source.sim.servers.get(uuid)!.fs.root, 'world.txt'), 'blocks');
    return uuid;
  };

  const startTransfer = (uuid: string, token = tokenFor(uuid)): Promise<Response> =>
    fetch(`${source.url}/api/servers/${uuid}/transfer`, {
      method: 'POST',
      headers: { ...source.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: `${target.url}/api/transfers`, token, server: { uuid, start_on_completion: false } }),
    });

  it('should stream the archive to the target, which builds the server, checks it and reports success', async () => {
    const uuid = await serverToMove();
    expect((await startTransfer(uuid)).status).toBe(202);
    await waitFor(() => target.panel.callsTo(`/api/remote/servers/${uuid}/transfer/success`, 'POST').length > 0);
    expect(target.panel.callsTo(`/api/remote/servers/${uuid}`, 'GET')).toHaveLength(1);
    expect(await fsp.readFile(path.join(target.sim.servers.get(uuid)!.fs.root, 'world.txt'), 'utf8')).toBe('blocks');
    // The source keeps its copy until the panel deletes it, and never reports.
    expect(source.sim.servers.has(uuid)).toBe(true);
    expect(source.panel.calls.filter((c) => c.path.includes('/transfer/'))).toEqual([]);
    await waitFor(() => source.sim.servers.get(uuid)?.transferring === false);
  });

  it('should make the target report failure and drop what it built when the checksum does not match', async () => {
    const uuid = await serverToMove();
    target.sim.faults.transferTargetFails = true;
    expect((await startTransfer(uuid)).status).toBe(202);
    await waitFor(() => target.panel.callsTo(`/api/remote/servers/${uuid}/transfer/failure`, 'POST').length > 0);
    expect(target.sim.servers.has(uuid)).toBe(false);
  });

  it('should make the source report failure when it cannot write the archive, and the target hear nothing', async () => {
    const uuid = await serverToMove();
    source.sim.faults.transferSourceFails = true;
    const before = target.sim.requestsTo('/api/transfers').length;
    expect((await startTransfer(uuid)).status).toBe(202);
    await waitFor(() => source.panel.callsTo(`/api/remote/servers/${uuid}/transfer/failure`, 'POST').length > 0);
    expect(target.sim.requestsTo('/api/transfers')).toHaveLength(before);
  });

  it('should keep a silent target from reporting anything', async () => {
    const uuid = await serverToMove();
    target.sim.faults.transferTargetSilent = true;
    const before = target.sim.requestsTo('/api/transfers').length;
    expect((await startTransfer(uuid)).status).toBe(202);
    await waitFor(() => target.sim.requestsTo('/api/transfers').length > before && target.sim.servers.get(uuid)?.transferring === false);
    await waitFor(() => source.sim.servers.get(uuid)?.transferring === false);
    expect(target.panel.calls.filter((c) => c.path.includes(`${uuid}/transfer/`))).toEqual([]);
  });

  it('should refuse a second transfer while one runs (409), cancel it with DELETE, and answer 409 to DELETE when none runs', async () => {
    const uuid = await serverToMove();
    target.sim.faults.slowMs = 1000;
    expect((await startTransfer(uuid)).status).toBe(202);
    expect((await startTransfer(uuid)).status).toBe(409);
    const cancel = (): Promise<Response> => fetch(`${source.url}/api/servers/${uuid}/transfer`, { method: 'DELETE', headers: source.auth });
    expect((await cancel()).status).toBe(202);
    await waitFor(() => source.sim.servers.get(uuid)?.transferring === false);
    expect((await cancel()).status).toBe(409);
  });

  it("should check the target's JWT: no bearer 401, a bad signature, an expired token or a sub that is not a uuid 500", async () => {
    const post = (authorization?: string): Promise<number> =>
      fetch(`${target.url}/api/transfers`, { method: 'POST', headers: authorization ? { Authorization: authorization } : {} }).then((r) => r.status);
    const uuid = randomUUID();
    expect(await post()).toBe(401);
    expect(await post('Basic abc')).toBe(401);
    expect(await post(`Bearer ${sign({ sub: uuid, exp: Math.floor(Date.now() / 1000) + 60 }, 'another-node-token')}`)).toBe(500);
    expect(await post(tokenFor(uuid, -60))).toBe(500);
    expect(await post(tokenFor('not-a-uuid'))).toBe(500);
  });
});
