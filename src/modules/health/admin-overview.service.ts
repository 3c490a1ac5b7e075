import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RateLimitStorage } from 'src/common/rate-limit/rate-limit.storage';
import { AdminOverviewDto, SetupStepKey } from 'src/modules/health/dto/admin-overview.dto';
import { EggsService } from 'src/modules/eggs/eggs.service';
import { MailService } from 'src/modules/mail/mail.service';
import { NodesService } from 'src/modules/nodes/nodes.service';
import { AdminServersService } from 'src/modules/servers/admin-servers.service';
import { UsersService } from 'src/modules/users/users.service';

/** How long a node's daemon or Redis may take to answer before it counts as down: the page waits for no more. */
const PROBE_TIMEOUT_MS = 2_000;
const HEALTH_NODES = 50;

// dist/modules/health/ once built, src/modules/health/ under the tests: package.json is three levels up.
const VERSION = (JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

@Injectable()
export class AdminOverviewService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly nodes: NodesService,
    private readonly eggs: EggsService,
    private readonly servers: AdminServersService,
    private readonly mail: MailService,
    private readonly rateLimits: RateLimitStorage,
  ) {}

  async overview(): Promise<AdminOverviewDto> {
    const [users, places, kinds, servers, database, mail, redis, nodes] = await Promise.all([
      this.users.count(),
      this.nodes.counts(),
      this.eggs.counts(),
      this.servers.count(),
      this.dataSource.query('SELECT 1').then(
        () => 'up' as const,
        () => 'down' as const,
      ),
      this.mail.check(),
      this.rateLimits.ping(PROBE_TIMEOUT_MS),
      this.nodes.health(HEALTH_NODES, PROBE_TIMEOUT_MS),
    ]);
    const done: Record<SetupStepKey, boolean> = {
      location: places.locations > 0,
      node: places.nodes > 0,
      wings: nodes.some((n) => n.status === 'reachable'),
      egg: kinds.eggs > 0,
      // Someone besides the administrator who set the panel up.
      user: users > 1,
      server: servers > 0,
    };
    return {
      version: VERSION,
      counts: { users, nodes: places.nodes, locations: places.locations, servers, eggs: kinds.eggs, nests: kinds.nests },
      setup: (Object.keys(done) as SetupStepKey[]).map((key) => ({ key, done: done[key] })),
      health: {
        database: { configured: true, status: database },
        mail: { configured: mail !== 'not-configured', status: mail },
        redis: redis === null ? { configured: false, status: 'not-configured' } : { configured: true, status: redis ? 'up' : 'down' },
        nodes: nodes.map(({ node, status }) => ({ id: node.id, name: node.name, status, lastSeenAt: node.lastSeenAt?.toISOString() ?? null })),
      },
    };
  }
}
