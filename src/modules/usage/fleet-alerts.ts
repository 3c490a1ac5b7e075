import { Injectable, Logger } from '@nestjs/common';
import { about, PanelEvents } from 'src/common/events/panel-events';
import type { DaemonServerDetails } from 'src/modules/daemon-gateway/daemon.gateway';
import type { NodeEntity } from 'src/modules/nodes/node.entity';
import { ServerActivityLog } from 'src/modules/servers/server-activity';
import { ServerRecords } from 'src/modules/servers/server-records';
import type { LoadedServer } from 'src/modules/servers/server.entity';

/** A node that has not answered for this long is down. */
const NODE_DOWN_AFTER_MS = 2 * 60_000;
/** Three crashes within this window are a crash loop. */
const CRASH_LOOP_WINDOW_MS = 10 * 60_000;
const CRASH_LOOP_COUNT = 3;
/**
 * Wings sends what users did on the console socket (a stop, a `stop` typed) in batches every 60 s: a
 * server seen stopped is judged once that batch has had time to arrive.
 */
const JUDGE_AFTER_MS = 65_000;
/** Wings stamps those with its own clock: a stop up to this far outside the two samples still counts. */
const CLOCK_SLACK_MS = 30_000;
/** Disk use over this share of the node's disk raises node.disk_high; it is raised again only after falling under the second. */
const DISK_HIGH = 0.9;
const DISK_REARM = 0.85;
const MIB = 1024 * 1024;

/** What one sample saw of a server. */
interface Seen {
  state: string;
  uptime: number;
}

/** A server seen stopped (or restarted) between two samples, to be judged once Wings' activity is in. */
interface Suspect {
  node: NodeEntity;
  uuid: string;
  /** The previous sample, which saw it up, and the one that saw it stopped. */
  from: Date;
  to: Date;
}

const UP = new Set(['starting', 'running']);

/**
 * The alerts the usage sampler's view of the fleet raises (docs/webhooks.md#alerts), in the one
 * process that samples: a server that went down without anyone stopping it (server.crashed, and
 * server.crash_loop at three in 10 minutes), a node silent for 2 minutes (node.down, then node.up)
 * and a node whose servers fill 90 % of its disk (node.disk_high). What each pass saw is kept in
 * memory; a restarted panel starts watching afresh.
 */
@Injectable()
export class FleetAlerts {
  private readonly logger = new Logger(FleetAlerts.name);
  /** By node id: when it was last sampled and its servers then. */
  private seen = new Map<string, { at: Date; servers: Map<string, Seen> }>();
  private suspects: Suspect[] = [];
  /** By server id: its recent crashes (ms). */
  private crashes = new Map<string, number[]>();
  /** By node id: since when it has not answered, and whether node.down went out. */
  private silent = new Map<string, { since: Date; down: boolean }>();
  private diskHigh = new Set<string>();

  constructor(
    private readonly events: PanelEvents,
    private readonly records: ServerRecords,
    private readonly activity: ServerActivityLog,
  ) {}

  /** Forgets the nodes that are gone. */
  keepNodes(ids: Set<string>): void {
    for (const map of [this.seen, this.silent]) {
      for (const id of map.keys()) {
        if (!ids.has(id)) {
          map.delete(id);
        }
      }
    }
  }

  async nodeSilent(node: NodeEntity, now: Date): Promise<void> {
    const silent = this.silent.get(node.id) ?? { since: now, down: false };
    this.silent.set(node.id, silent);
    // Its servers' states are unknown meanwhile: a crash is judged only between two answers.
    this.seen.delete(node.id);
    if (!silent.down && now.getTime() - silent.since.getTime() >= NODE_DOWN_AFTER_MS) {
      silent.down = true;
      await this.events.publish({ event: 'node.down', ...about(null, node), data: { silentSince: silent.since.toISOString() } });
    }
  }

  /** A node's answer: its servers' states, and its servers' disk use in bytes. */
  async nodeAnswered(node: NodeEntity, listed: Map<string, DaemonServerDetails>, diskBytes: number, now: Date): Promise<void> {
    const silent = this.silent.get(node.id);
    this.silent.delete(node.id);
    if (silent?.down) {
      await this.events.publish({
        event: 'node.up',
        ...about(null, node),
        data: { silentSince: silent.since.toISOString(), downForSeconds: Math.round((now.getTime() - silent.since.getTime()) / 1000) },
      });
    }
    await this.checkDisk(node, diskBytes);

    const previous = this.seen.get(node.id);
    const servers = new Map<string, Seen>();
    for (const [uuid, details] of listed) {
      const seen = { state: details.state, uptime: typeof details.utilization.uptime === 'number' ? details.utilization.uptime : 0 };
      servers.set(uuid, seen);
      const before = previous?.servers.get(uuid);
      if (previous && before && UP.has(before.state) && (seen.state === 'offline' || (UP.has(seen.state) && seen.uptime < before.uptime))) {
        // Down, or up again with a younger process (Wings restarts a crashed server on its own).
        this.suspects.push({ node, uuid, from: previous.at, to: now });
      }
    }
    this.seen.set(node.id, { at: now, servers });
  }

  /** Judges the suspects whose node's activity is in by `now`; how many crashed. */
  async judge(now: Date): Promise<number> {
    const due = this.suspects.filter((s) => now.getTime() - s.to.getTime() >= JUDGE_AFTER_MS);
    this.suspects = this.suspects.filter((s) => !due.includes(s));
    let crashed = 0;
    for (const [nodeId, suspects] of groupBy(due, (s) => s.node.id)) {
      const servers = new Map((await this.records.onNode(nodeId, suspects.map((s) => s.uuid))).map((s) => [s.uuid, s]));
      for (const suspect of suspects) {
        const server = servers.get(suspect.uuid);
        if (server && (await this.crashedBetween(server, suspect.from, suspect.to))) {
          crashed += 1;
          await this.crashed(server, suspect.node, suspect.to);
        }
      }
    }
    return crashed;
  }

  /** Down with nobody having stopped it, and nothing the panel does to a server (suspension, install, restore, transfer) under way. */
  private async crashedBetween(server: LoadedServer, from: Date, to: Date): Promise<boolean> {
    if (server.suspended || server.status !== null || server.activeTransfer) {
      return false;
    }
    const [since, until] = [new Date(from.getTime() - CLOCK_SLACK_MS), new Date(to.getTime() + CLOCK_SLACK_MS)];
    return !(await this.activity.stoppedBetween(server.id, since, until, stopCommandOf(server.egg.configStop)));
  }

  private async crashed(server: LoadedServer, node: NodeEntity, at: Date): Promise<void> {
    const since = at.getTime() - CRASH_LOOP_WINDOW_MS;
    const recent = [...(this.crashes.get(server.id) ?? []).filter((t) => t > since), at.getTime()];
    this.crashes.set(server.id, recent);
    this.logger.log(`Server ${server.uuid} on node ${node.id} crashed (${recent.length} in 10 minutes)`);
    await this.events.publish({ event: 'server.crashed', ...about(server, node), data: { crashesInLast10Minutes: recent.length } });
    if (recent.length >= CRASH_LOOP_COUNT) {
      await this.events.publish({ event: 'server.crash_loop', ...about(server, node), data: { crashesInLast10Minutes: recent.length } });
    }
  }

  private async checkDisk(node: NodeEntity, diskBytes: number): Promise<void> {
    const capacity = node.disk * MIB;
    if (capacity <= 0) {
      return;
    }
    const share = diskBytes / capacity;
    if (share > DISK_HIGH && !this.diskHigh.has(node.id)) {
      this.diskHigh.add(node.id);
      await this.events.publish({
        event: 'node.disk_high',
        ...about(null, node),
        data: { diskUsedBytes: diskBytes, diskBytes: capacity, percent: Math.round(share * 1000) / 10 },
      });
    } else if (share < DISK_REARM) {
      this.diskHigh.delete(node.id);
    }
  }
}

/** The console command that stops the server (the egg's `config.stop`), or null for a signal (`^C`, `^SIGKILL`). */
const stopCommandOf = (configStop: string | null): string | null => {
  const value = configStop?.trim() ?? '';
  return value === '' || value.startsWith('^') ? null : value;
};

const groupBy = <T>(items: T[], key: (item: T) => string): Map<string, T[]> => {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  }
  return groups;
};
