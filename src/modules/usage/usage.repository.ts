import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DAY_MS, UsagePartitions } from 'src/modules/usage/usage-partitions';

/** One running server's usage in one sample (CPU in percent of a core; network during the interval). */
export interface ServerSample {
  uuid: string;
  cpu: number;
  memoryBytes: number;
  diskBytes: number;
  rxBytes: number;
  txBytes: number;
}

/** A node's sample: its running servers summed, or `reachable: false` with zeros when it did not answer. */
export interface NodeSample {
  nodeId: string;
  reachable: boolean;
  serversRunning: number;
  cpu: number;
  memoryBytes: number;
  diskBytes: number;
  rxBytes: number;
  txBytes: number;
}

/** A point of a history as the API answers it (sums of network over the point, averages and peaks of the rest). */
export interface UsagePointRow {
  at: Date;
  cpu: number;
  cpu_max: number;
  memory_bytes: string;
  memory_max_bytes: string;
  disk_bytes: string;
  rx_bytes: string;
  tx_bytes: string;
}

interface NodeUsagePointRow extends UsagePointRow {
  reachability: number;
  servers_running: number;
}

const ROLLUP_MS = 15 * 60_000;

/** Which table a read goes to, and the width of the points it answers. */
export interface HistoryQuery {
  from: Date;
  to: Date;
  resolutionSeconds: number;
  /** The 15-minute rollups rather than the minute points. */
  rollups: boolean;
}

/**
 * The points, bucketed by `resolution` seconds: averages weighted by how many samples each row holds
 * (one for a minute point), peaks, the last disk size, network summed.
 */
const bucketed = (table: string, key: string, node: boolean, rollups: boolean): string => {
  const samples = rollups ? 'samples' : '1';
  const cpuMax = rollups ? 'cpu_max' : 'cpu';
  const memoryMax = rollups ? 'memory_max_bytes' : 'memory_bytes';
  const nodeColumns = node
    ? `, ${rollups ? 'sum(reachable_samples)::float8 / sum(samples)' : 'avg(reachable::int)::float8'} AS reachability, max(servers_running) AS servers_running`
    : '';
  return `
    SELECT to_timestamp(floor(extract(epoch FROM at) / $3) * $3) AS at,
           (sum(cpu * ${samples}) / sum(${samples}))::real AS cpu, max(${cpuMax}) AS cpu_max,
           (sum(memory_bytes * ${samples}) / sum(${samples}))::bigint AS memory_bytes, max(${memoryMax}) AS memory_max_bytes,
           (array_agg(disk_bytes ORDER BY at DESC))[1] AS disk_bytes,
           sum(rx_bytes)::bigint AS rx_bytes, sum(tx_bytes)::bigint AS tx_bytes${nodeColumns}
    FROM ${table}
    WHERE ${key} = $1 AND at >= $2 AND at < $4
    GROUP BY 1
    ORDER BY 1`;
};

/** The usage history's rows (migration AddUsageHistory): written by the sampler, read by the history routes. */
@Injectable()
export class UsageRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly partitions: UsagePartitions,
  ) {}

  /**
   * One node's sample and its servers', at `at`, in one statement (so both or neither are written); a
   * second write of the same instant is ignored.
   */
  async write(at: Date, node: NodeSample, servers: ServerSample[]): Promise<void> {
    await this.partitions.ensure('server_usage', at);
    await this.partitions.ensure('node_usage', at);
    await this.dataSource.query(
      `WITH node_point AS (
         INSERT INTO node_usage (node_id, at, reachable, servers_running, cpu, memory_bytes, disk_bytes, rx_bytes, tx_bytes)
         VALUES ($8, $1, $9, $10, $11, $12, $13, $14, $15) ON CONFLICT DO NOTHING
       )
       INSERT INTO server_usage (server_uuid, at, cpu, memory_bytes, disk_bytes, rx_bytes, tx_bytes)
       SELECT u, $1, c, m, d, r, t FROM unnest($2::uuid[], $3::real[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[]) AS x(u, c, m, d, r, t)
       ON CONFLICT DO NOTHING`,
      [
        at,
        servers.map((s) => s.uuid),
        servers.map((s) => s.cpu),
        servers.map((s) => s.memoryBytes),
        servers.map((s) => s.diskBytes),
        servers.map((s) => s.rxBytes),
        servers.map((s) => s.txBytes),
        node.nodeId,
        node.reachable,
        node.serversRunning,
        node.cpu,
        node.memoryBytes,
        node.diskBytes,
        node.rxBytes,
        node.txBytes,
      ],
    );
  }

  /**
   * Rolls the minute points of every whole 15-minute bucket before `until` that is not rolled up yet
   * into the rollup tables, and moves the mark (`usage_rollup_mark`) in the same transaction. Only the
   * days that still have minute points are looked at (their partitions), so a panel stopped for a
   * week rolls up what is left and makes no empty days. Returns the buckets the window spanned.
   */
  async rollUp(until: Date): Promise<number> {
    const end = new Date(Math.floor(until.getTime() / ROLLUP_MS) * ROLLUP_MS);
    return this.dataSource.transaction(async (manager) => {
      const [mark] = await manager.query<{ rolled_until: Date }[]>(`SELECT rolled_until FROM usage_rollup_mark WHERE id = 1 FOR UPDATE`);
      const days = (await this.partitions.daysOf('server_usage', manager)).map((d) => d.day.getTime());
      const start = new Date(Math.max(mark ? new Date(mark.rolled_until).getTime() : 0, days[0] ?? end.getTime()));
      if (end <= start) {
        return 0;
      }
      for (const day of days.filter((d) => d + DAY_MS > start.getTime() && d < end.getTime())) {
        await this.partitions.ensure('server_usage_15m', new Date(day), manager);
        await this.partitions.ensure('node_usage_15m', new Date(day), manager);
      }
      const bucket = `to_timestamp(floor(extract(epoch FROM at) / 900) * 900)`;
      await manager.query(
        `INSERT INTO server_usage_15m (server_uuid, at, cpu, cpu_max, memory_bytes, memory_max_bytes, disk_bytes, rx_bytes, tx_bytes, samples)
         SELECT server_uuid, ${bucket}, avg(cpu), max(cpu), avg(memory_bytes)::bigint, max(memory_bytes), (array_agg(disk_bytes ORDER BY at DESC))[1], sum(rx_bytes), sum(tx_bytes), count(*)
         FROM server_usage WHERE at >= $1 AND at < $2 GROUP BY server_uuid, 2
         ON CONFLICT DO NOTHING`,
        [start, end],
      );
      await manager.query(
        `INSERT INTO node_usage_15m (node_id, at, reachable_samples, servers_running, cpu, cpu_max, memory_bytes, memory_max_bytes, disk_bytes, rx_bytes, tx_bytes, samples)
         SELECT node_id, ${bucket}, count(*) FILTER (WHERE reachable), max(servers_running), avg(cpu), max(cpu), avg(memory_bytes)::bigint, max(memory_bytes),
                (array_agg(disk_bytes ORDER BY at DESC))[1], sum(rx_bytes), sum(tx_bytes), count(*)
         FROM node_usage WHERE at >= $1 AND at < $2 GROUP BY node_id, 2
         ON CONFLICT DO NOTHING`,
        [start, end],
      );
      await manager.query(`INSERT INTO usage_rollup_mark (id, rolled_until) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET rolled_until = excluded.rolled_until`, [end]);
      return Math.round((end.getTime() - start.getTime()) / ROLLUP_MS);
    });
  }

  /** Each node's last sample since `since` (the metrics' fleet: up, servers running, what they use). */
  latestNodeSamples(since: Date): Promise<{ node_id: string; reachable: boolean; servers_running: number; cpu: number; memory_bytes: string; disk_bytes: string }[]> {
    return this.dataSource.query(
      `SELECT DISTINCT ON (node_id) node_id::text, reachable, servers_running, cpu, memory_bytes, disk_bytes FROM node_usage WHERE at >= $1 ORDER BY node_id, at DESC`,
      [since],
    );
  }

  /** Every running server's point of the last sample since `since`. */
  latestServerSamples(since: Date): Promise<{ server_uuid: string; cpu: number; memory_bytes: string; disk_bytes: string }[]> {
    return this.dataSource.query(
      `SELECT server_uuid, cpu, memory_bytes, disk_bytes FROM server_usage WHERE at = (SELECT max(at) FROM node_usage WHERE at >= $1) ORDER BY server_uuid`,
      [since],
    );
  }

  serverHistory(uuid: string, q: HistoryQuery): Promise<UsagePointRow[]> {
    return this.dataSource.query<UsagePointRow[]>(bucketed(q.rollups ? 'server_usage_15m' : 'server_usage', 'server_uuid', false, q.rollups), [
      uuid,
      q.from,
      q.resolutionSeconds,
      q.to,
    ]);
  }

  nodeHistory(nodeId: string, q: HistoryQuery): Promise<NodeUsagePointRow[]> {
    return this.dataSource.query<NodeUsagePointRow[]>(bucketed(q.rollups ? 'node_usage_15m' : 'node_usage', 'node_id', true, q.rollups), [nodeId, q.from, q.resolutionSeconds, q.to]);
  }
}
