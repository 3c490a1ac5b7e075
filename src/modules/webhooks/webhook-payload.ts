import { createHmac, randomUUID } from 'node:crypto';
import type { PanelEvent, PanelEventName } from 'src/common/events/panel-events';
import type { WebhookKind } from 'src/modules/webhooks/webhook.entity';

/** The event of a "send test" delivery. */
export const TEST_EVENT = 'webhook.test';

/** What every webhook body holds (docs/webhooks.md#body). */
export interface WebhookPayload {
  /** The delivery's id: the same on every attempt. */
  id: string;
  event: PanelEventName | typeof TEST_EVENT;
  /** When the event happened (ISO 8601). */
  timestamp: string;
  server: PanelEvent['server'] | null;
  node: PanelEvent['node'] | null;
  data: Record<string, unknown>;
}

/** A delivery of `event` to one webhook, due now: its id, and the body every attempt sends. A test delivery is tried once. */
export const newDelivery = (webhookId: string, event: WebhookPayload['event'], about: Pick<PanelEvent, 'server' | 'node' | 'data'>, now: Date, test = false) => {
  const uuid = randomUUID();
  const payload: WebhookPayload = { id: uuid, event, timestamp: now.toISOString(), server: about.server ?? null, node: about.node ?? null, data: about.data ?? {} };
  return { uuid, webhookId, event, payload: payload as unknown as Record<string, unknown>, test, createdAt: now, nextAttemptAt: now };
};

/** `sha256=` and the hex HMAC-SHA256 of `"<timestamp>.<body>"` under the endpoint's secret. */
const signature = (secret: string, timestamp: number, body: string): string =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

const RED = 0xe03131;
const ORANGE = 0xf08c00;
const GREEN = 0x2f9e44;
const BLUE = 0x1c7ed6;

/** The Discord embed's title and colour of each event. */
const DISCORD: Record<WebhookPayload['event'], { title: string; color: number }> = {
  'server.crashed': { title: 'Server crashed', color: RED },
  'server.crash_loop': { title: 'Server keeps crashing', color: RED },
  'server.install_failed': { title: 'Server installation failed', color: RED },
  'backup.failed': { title: 'Backup failed', color: RED },
  'transfer.failed': { title: 'Transfer failed', color: RED },
  'node.down': { title: 'Node is not answering', color: RED },
  'node.up': { title: 'Node is answering again', color: GREEN },
  'node.disk_high': { title: 'Node disk almost full', color: ORANGE },
  'server.created': { title: 'Server created', color: BLUE },
  'server.deleted': { title: 'Server deleted', color: BLUE },
  'server.suspended': { title: 'Server suspended', color: ORANGE },
  'server.unsuspended': { title: 'Server unsuspended', color: GREEN },
  'server.installed': { title: 'Server installed', color: GREEN },
  'backup.completed': { title: 'Backup completed', color: GREEN },
  'transfer.completed': { title: 'Transfer completed', color: GREEN },
  'user.created': { title: 'User created', color: BLUE },
  [TEST_EVENT]: { title: 'Test from Hatchery', color: BLUE },
};

/** A data value as an embed field shows it. */
const shown = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value)).slice(0, 1024);

/** The Discord body of a payload: one embed naming the event, the server and the node, and the data as fields. */
const discordBody = (payload: WebhookPayload): Record<string, unknown> => {
  const look = DISCORD[payload.event];
  const fields = [
    ...(payload.server ? [{ name: 'Server', value: `${payload.server.name} (${payload.server.uuid.slice(0, 8)})`, inline: true }] : []),
    ...(payload.node ? [{ name: 'Node', value: payload.node.name, inline: true }] : []),
    ...Object.entries(payload.data)
      .filter(([, value]) => value !== null && value !== undefined)
      .slice(0, 10)
      .map(([name, value]) => ({ name, value: shown(value), inline: true })),
  ];
  return {
    username: 'Hatchery',
    embeds: [{ title: look.title, color: look.color, timestamp: payload.timestamp, fields, footer: { text: payload.event } }],
  };
};

/** The request an endpoint of `kind` gets: its body and headers, signed when it has a secret. */
export const webhookRequest = (kind: WebhookKind, payload: WebhookPayload, secret: string | null, now: Date): { body: string; headers: Record<string, string> } => {
  const body = JSON.stringify(kind === 'discord' ? discordBody(payload) : payload);
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    body,
    headers: {
      'Content-Type': 'application/json',
      'X-Hatchery-Event': payload.event,
      'X-Hatchery-Delivery': payload.id,
      'X-Hatchery-Timestamp': String(timestamp),
      ...(secret ? { 'X-Hatchery-Signature': signature(secret, timestamp, body) } : {}),
    },
  };
};

/** How a URL is shown: a Discord webhook's token (its last path part) hidden. */
export const shownUrl = (kind: WebhookKind, url: string): string => {
  if (kind !== 'discord') {
    return url;
  }
  try {
    const parsed = new URL(url);
    const parts = parsed.pathname.split('/');
    if (parts.length > 2 && parts[parts.length - 1]) {
      parts[parts.length - 1] = '…';
    }
    return `${parsed.origin}${parts.join('/')}`;
  } catch {
    return '…';
  }
};
