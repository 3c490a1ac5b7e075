import type { CreateWebhookBody, UpdateWebhookBody, Webhook, WebhookEvent, WebhookScope } from '@/features/webhooks/api';

/** The events, as the panel names them (src/common/events/panel-events.ts): alerts first, then changes. */
export const ALERT_EVENTS = [
  'server.crashed',
  'server.crash_loop',
  'server.install_failed',
  'backup.failed',
  'transfer.failed',
  'node.down',
  'node.up',
  'node.disk_high',
] as const satisfies readonly WebhookEvent[];

export const CHANGE_EVENTS = [
  'server.created',
  'server.deleted',
  'server.suspended',
  'server.unsuspended',
  'server.installed',
  'backup.completed',
  'transfer.completed',
  'user.created',
] as const satisfies readonly WebhookEvent[];

export type EventName = (typeof ALERT_EVENTS)[number] | (typeof CHANGE_EVENTS)[number];

// The lists above repeat the server's (src/common/events/panel-events.ts), grouped for the form; an
// event the API accepts that is missing here fails the typecheck (as one here the API lacks does).
const everyEventOffered: [Exclude<WebhookEvent, '*' | EventName>] extends [never] ? true : never = true;
void everyEventOffered;

/**
 * Whether a server's webhook is offered the event, by the panel's rule: events about a server, but its
 * creation (before any of its webhooks) and its deletion (which takes them with it).
 */
const isServerEvent = (event: EventName): boolean => /^(server|backup|transfer)\./.test(event) && event !== 'server.created' && event !== 'server.deleted';

/** The events a webhook of the scope may pick, in two groups. */
export const eventGroups = (scope: WebhookScope): { group: 'alerts' | 'changes'; events: EventName[] }[] => {
  const allowed = (events: readonly EventName[]) => (scope.kind === 'admin' ? [...events] : events.filter(isServerEvent));
  return [
    { group: 'alerts', events: allowed(ALERT_EVENTS) },
    { group: 'changes', events: allowed(CHANGE_EVENTS) },
  ];
};

/** What the form holds. `url` empty while editing means "keep the URL" (a Discord URL comes back with its token hidden). */
export interface WebhookForm {
  name: string;
  kind: 'http' | 'discord';
  url: string;
  allEvents: boolean;
  events: EventName[];
  secret: string;
  enabled: boolean;
}

export const emptyForm = (): WebhookForm => ({ name: '', kind: 'http', url: '', allEvents: false, events: [], secret: '', enabled: true });

/** The form of an existing webhook: its URL left empty when it is shown with its token hidden. */
export const formOf = (hook: Webhook): WebhookForm => ({
  name: hook.name,
  kind: hook.kind,
  url: hook.url.includes('…') ? '' : hook.url,
  allEvents: hook.events.includes('*'),
  events: hook.events.filter((e): e is EventName => e !== '*'),
  secret: '',
  enabled: hook.enabled,
});

const eventsOf = (form: WebhookForm): WebhookEvent[] => (form.allEvents ? ['*'] : form.events);

/** The body of a create: the secret only when typed, and only for http. */
export const createBody = (form: WebhookForm): CreateWebhookBody => ({
  name: form.name.trim(),
  kind: form.kind,
  url: form.url.trim(),
  events: eventsOf(form),
  enabled: form.enabled,
  ...(form.kind === 'http' && form.secret.trim() !== '' ? { secret: form.secret.trim() } : {}),
});

/** The body of an update: what changed from `hook` (an empty URL keeps the URL; an empty secret keeps the secret). */
export const updateBody = (form: WebhookForm, hook: Webhook): UpdateWebhookBody => {
  const events = eventsOf(form);
  const sameEvents = events.length === hook.events.length && events.every((e) => hook.events.includes(e));
  const url = form.url.trim();
  return {
    ...(form.name.trim() !== hook.name ? { name: form.name.trim() } : {}),
    ...(url !== '' && url !== hook.url ? { url } : {}),
    ...(sameEvents ? {} : { events }),
    ...(form.enabled !== hook.enabled ? { enabled: form.enabled } : {}),
    ...(hook.kind === 'http' && form.secret.trim() !== '' ? { secret: form.secret.trim() } : {}),
  };
};
