// What route modules need from the simulator; implemented by WingsSimulator.
import { UniqueIdStore, WebsocketTokenPolicy } from 'test/wings-sim/auth';
import { JsonRecord } from 'test/wings-sim/config';
import { InstallOptions } from 'test/wings-sim/install';
import { PanelClient } from 'test/wings-sim/panel-client';
import { SimServer } from 'test/wings-sim/sim-server';
import { PanelServerConfiguration, SimulatorTiming } from 'test/wings-sim/types';

/** Fault switches; tests flip them at any time (`sim.faults.down = true`). */
export interface SimFaults {
  /** Connections are destroyed as soon as they arrive; open sockets are cut when switched on. */
  down?: boolean;
  /**
   * A hung node: connections are accepted but no request or websocket upgrade is ever answered (open
   * sockets go quiet too). Switching it off closes the held ones, as a node restarting would.
   */
  hang?: boolean;
  /** Every HTTP answer waits this long first. */
  slowMs?: number;
  /** Every HTTP request (after the request log) is answered 500 with Wings' generic error. */
  status500?: boolean;
  /** JSON answers are cut off mid-document. */
  malformedJson?: boolean;
  /** Callbacks to the panel carry a wrong secret in `Bearer <tokenId>.<token>`. */
  wrongToken?: boolean;
  /** Simulated install scripts fail (panel sees `successful: false`). */
  installFails?: boolean;
  /** Backups fail while the archive is written (panel sees `successful: false`, empty checksum, size 0). */
  backupFails?: boolean;
  /** As a transfer source: fails while writing the archive (reports `transfer/failure`). */
  transferSourceFails?: boolean;
  /** As a transfer source: cuts the archive stream half-way and goes `down` (reports nothing). */
  transferSourceDiesMidStream?: boolean;
  /** As a transfer target: the checksum does not match, so it reports `transfer/failure`. */
  transferTargetFails?: boolean;
  /** As a transfer target: receives (and succeeds or fails) but never reports to the panel. */
  transferTargetSilent?: boolean;
  /** S3 backups: the upload fails once this many parts are up (0: at the first part); the panel sees `successful: false`. */
  backupUploadFailsAfterParts?: number;
}

export interface SimContext {
  readonly servers: Map<string, SimServer>;
  readonly panel: PanelClient;
  readonly uniqueIds: UniqueIdStore;
  readonly wsPolicy: WebsocketTokenPolicy;
  readonly timing: SimulatorTiming;
  readonly faults: SimFaults;
  readonly installOptions: InstallOptions;
  readonly backupDir: string;
  token(): string;
  panelUrl(): string;
  allowedOrigins(): string[];
  uploadLimitMb(): number;
  createServer(uuid: string, cfg: PanelServerConfiguration): Promise<SimServer>;
  removeServer(s: SimServer): void;
  /** POST /api/update: store the body, apply what the simulator understands; returns `applied`. */
  applyConfigUpdate(body: JsonRecord): boolean;
  log(message: string): void;
}
