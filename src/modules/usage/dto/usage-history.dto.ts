import { IsIn, IsOptional } from 'class-validator';

export const USAGE_RANGES = ['1h', '24h', '7d', '30d', '90d'] as const;
export type UsageRange = (typeof USAGE_RANGES)[number];

export class UsageHistoryQueryDto {
  /** How far back: 1h, 24h, 7d, 30d or 90d (default 1h). */
  @IsOptional()
  @IsIn(USAGE_RANGES)
  range?: UsageRange;
}

/** One point of a usage history: what the samples of `[at, at + resolution)` held. */
export class UsagePointDto {
  /** The point's start (ISO 8601). */
  at!: string;
  /** CPU in percent of one core (100 = one full core): the average over the point. */
  cpuAbsolute!: number;
  /** The highest CPU of one sample in the point. */
  cpuMaxAbsolute!: number;
  /** Memory in use, the average over the point. */
  memoryBytes!: number;
  memoryMaxBytes!: number;
  /** Disk in use at the point's last sample. */
  diskBytes!: number;
  /** Bytes received and sent during the point. */
  networkRxBytes!: number;
  networkTxBytes!: number;
}

/** A server's usage history (docs/api.md#usage-history); minutes it was not running have no point. */
export class UsageHistoryDto {
  range!: UsageRange;
  /** Seconds each point covers. */
  resolution!: number;
  /** The range's start and end (ISO 8601). */
  from!: string;
  to!: string;
  points!: UsagePointDto[];
}

export class NodeUsagePointDto extends UsagePointDto {
  /** The share of the point's samples the node answered, 0 to 1. */
  reachability!: number;
  /** The most servers running at one sample. */
  serversRunning!: number;
}

/** A node's usage history: its running servers summed, one point per interval it was sampled. */
export class NodeUsageHistoryDto {
  range!: UsageRange;
  resolution!: number;
  from!: string;
  to!: string;
  points!: NodeUsagePointDto[];
}
