import { ApiProperty } from '@nestjs/swagger';

export const SETUP_STEPS = ['location', 'node', 'wings', 'egg', 'user', 'server'] as const;
export type SetupStepKey = (typeof SETUP_STEPS)[number];

class OverviewCountsDto {
  users!: number;
  nodes!: number;
  locations!: number;
  servers!: number;
  eggs!: number;
  nests!: number;
}

class SetupStepDto {
  @ApiProperty({ enum: SETUP_STEPS })
  key!: SetupStepKey;
  done!: boolean;
}

class ServiceHealthDto {
  /** Whether the panel is set up to use it (SMTP_URL, REDIS_URL); the database always is. */
  configured!: boolean;
  @ApiProperty({ enum: ['up', 'down', 'not-configured'] })
  status!: 'up' | 'down' | 'not-configured';
}

class NodeHealthDto {
  id!: string;
  name!: string;
  /** `waiting`: the daemon does not answer and has never called the panel (Wings not set up yet). */
  @ApiProperty({ enum: ['reachable', 'waiting', 'unreachable'] })
  status!: 'reachable' | 'waiting' | 'unreachable';
  lastSeenAt!: string | null;
}

class OverviewHealthDto {
  database!: ServiceHealthDto;
  mail!: ServiceHealthDto;
  redis!: ServiceHealthDto;
  /** The first 50 nodes by id. */
  nodes!: NodeHealthDto[];
}

/** The administration's start page: counts, the first-setup checklist, the panel's version and health. */
export class AdminOverviewDto {
  version!: string;
  counts!: OverviewCountsDto;
  /** In the order they are done on a new panel: location, node, wings, egg, user, server. */
  setup!: SetupStepDto[];
  health!: OverviewHealthDto;
}
