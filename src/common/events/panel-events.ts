import { Global, Injectable, Logger, Module } from '@nestjs/common';
import { errorMessage } from 'src/common/errors/error-message';

/**
 * What the panel tells the outside about (docs/webhooks.md#events). Alerts are things going wrong, sent
 * at most once per server or node per 10 minutes; the rest are changes, sent each time.
 */
const ALERT_EVENTS = [
  'server.crashed',
  'server.crash_loop',
  'server.install_failed',
  'backup.failed',
  'transfer.failed',
  'node.down',
  'node.up',
  'node.disk_high',
] as const;

export const CHANGE_EVENTS = [
  'server.created',
  'server.deleted',
  'server.suspended',
  'server.unsuspended',
  'server.installed',
  'backup.completed',
  'transfer.completed',
  'user.created',
] as const;

export type AlertEventName = (typeof ALERT_EVENTS)[number];
export type PanelEventName = AlertEventName | (typeof CHANGE_EVENTS)[number];

export const PANEL_EVENTS: readonly PanelEventName[] = [...ALERT_EVENTS, ...CHANGE_EVENTS];

/**
 * The events about one server that its own webhooks may subscribe to: not its creation, which comes
 * before any of them, nor its deletion, which takes them with it.
 */
export const SERVER_EVENTS: readonly PanelEventName[] = PANEL_EVENTS.filter(
  (e) => (e.startsWith('server.') || e.startsWith('backup.') || e.startsWith('transfer.')) && e !== 'server.created' && e !== 'server.deleted',
);

export const isAlertEvent = (event: PanelEventName): event is AlertEventName => (ALERT_EVENTS as readonly string[]).includes(event);

/** The server an event is about, as receivers see it. */
export interface PanelEventServer {
  id: string;
  uuid: string;
  name: string;
  nodeId: string;
}

/** The node an event is about (or the server's node). */
export interface PanelEventNode {
  id: string;
  name: string;
}

export interface PanelEvent {
  event: PanelEventName;
  server?: PanelEventServer;
  node?: PanelEventNode;
  /** What else receivers are told: the backup's uuid, the transfer's nodes, the user's name... */
  data?: Record<string, unknown>;
}

type Listener = (event: PanelEvent) => Promise<void>;

/**
 * The panel's events, from the modules where they happen (servers, backups, transfers, users, the
 * usage sampler) to those that act on them (webhooks), without the first depending on the second.
 * Published after the change is committed; a listener's failure is logged and never reaches the
 * publisher, whose work is done.
 */
@Injectable()
export class PanelEvents {
  private readonly logger = new Logger(PanelEvents.name);
  private readonly listeners: Listener[] = [];

  subscribe(listener: Listener): void {
    this.listeners.push(listener);
  }

  /** Resolves once every listener has taken the event (the webhooks have queued their deliveries). */
  async publish(event: PanelEvent): Promise<void> {
    for (const listener of this.listeners) {
      try {
        await listener(event);
      } catch (e) {
        this.logger.error(`A listener of ${event.event} failed: ${errorMessage(e)}`);
      }
    }
  }
}

@Global()
@Module({ providers: [PanelEvents], exports: [PanelEvents] })
export class PanelEventsModule {}

/** An event's `server` and `node` from the rows that name them (only the fields receivers see). */
export const about = (
  server: { id: string; uuid: string; name: string; nodeId: string } | null,
  node?: { id: string; name: string } | null,
): Pick<PanelEvent, 'server' | 'node'> => ({
  ...(server ? { server: { id: server.id, uuid: server.uuid, name: server.name, nodeId: server.nodeId } } : {}),
  ...(node ? { node: { id: node.id, name: node.name } } : {}),
});
