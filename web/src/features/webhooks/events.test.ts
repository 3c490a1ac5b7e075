import { describe, expect, it } from 'vitest';
import type { Webhook } from '@/features/webhooks/api';
import { createBody, emptyForm, eventGroups, formOf, updateBody } from '@/features/webhooks/events';

const hook: Webhook = {
  id: '4',
  name: 'Ops',
  kind: 'discord',
  url: 'https://discord.com/api/webhooks/1/…',
  events: ['server.crashed'],
  enabled: true,
  hasSecret: false,
  serverId: null,
  createdAt: '2026-11-28T00:00:00.000Z',
  updatedAt: '2026-11-28T00:00:00.000Z',
};

describe('webhook events and bodies', () => {
  it('should offer a server only the events about a server, and an administrator all of them', () => {
    const server = eventGroups({ kind: 'server', serverId: 'abc' }).flatMap((g) => g.events);
    expect(server).not.toContain('node.down');
    expect(server).not.toContain('user.created');
    expect(server).toContain('backup.failed');
    // Deleted with their server, a server's webhooks never hear of it.
    expect(server).not.toContain('server.deleted');
    expect(server).not.toContain('server.created');
    expect(eventGroups({ kind: 'admin' }).flatMap((g) => g.events)).toHaveLength(16);
  });

  it('should send "*" alone for all events, and a typed secret only for http', () => {
    const form = { ...emptyForm(), name: ' Ops ', url: ' https://example.com/h ', allEvents: true, events: ['node.down' as const], secret: 's'.repeat(20) };
    expect(createBody(form)).toEqual({ name: 'Ops', kind: 'http', url: 'https://example.com/h', events: ['*'], enabled: true, secret: 's'.repeat(20) });
    expect(createBody({ ...form, kind: 'discord' })).not.toHaveProperty('secret');
    expect(createBody({ ...form, secret: '  ' })).not.toHaveProperty('secret');
  });

  it('should leave a hidden Discord URL out of the form, and send only what changed', () => {
    const form = formOf(hook);
    expect(form.url).toBe('');
    expect(updateBody(form, hook)).toEqual({});
    expect(updateBody({ ...form, name: 'Ops 2', enabled: false }, hook)).toEqual({ name: 'Ops 2', enabled: false });
    expect(updateBody({ ...form, url: 'https://discord.com/api/webhooks/1/new' }, hook)).toEqual({ url: 'https://discord.com/api/webhooks/1/new' });
    expect(updateBody({ ...form, events: ['server.crashed', 'server.crash_loop'] }, hook)).toEqual({ events: ['server.crashed', 'server.crash_loop'] });
    expect(updateBody({ ...form, allEvents: true }, hook)).toEqual({ events: ['*'] });
  });
});
