import { describe, expect, it } from 'vitest';
import { EVENT_GROUPS, eventKey, isEventGroup, metadataSummary } from '@/features/activity/events';
import { parseActivitySearch } from '@/features/activity/search-params';
import en from '@/lib/i18n/en.json';

describe('parseActivitySearch', () => {
  it.each([
    [{}, {}],
    [{ event: 'server.schedule.*', page: 2 }, { event: 'server.schedule.*', page: 2 }],
    [{ event: 'server.power.start', page: '3' }, { event: 'server.power.start', page: 3 }],
    // What the panel would refuse is dropped rather than sent.
    [{ event: 'server.%' }, {}],
    [{ event: 'server.*.start' }, {}],
    [{ event: 'Server.Power' }, {}],
    [{ event: 'x'.repeat(65) }, {}],
    [{ event: 42 }, {}],
    // Page 1 is the default; nonsense pages are dropped.
    [{ page: 1 }, {}],
    [{ page: 0 }, {}],
    [{ page: -2 }, {}],
    [{ page: 2.5 }, {}],
    [{ page: 'two' }, {}],
    [{ page: 10_000_000 }, { page: 1_000_000 }],
  ])('should read %j as %j', (search, expected) => {
    expect(parseActivitySearch(search as Record<string, unknown>)).toEqual(expected);
  });
});

describe('events', () => {
  it('should find the words of known events and none for others', () => {
    expect(eventKey('server.power.start')).toBe('server_power_start');
    expect(eventKey('server.schedule.task.success')).toBe('server_schedule_task_success');
    expect(eventKey('server.power')).toBeNull();
    expect(eventKey('server:sftp.write')).toBeNull();
    expect(eventKey('constructor')).toBeNull();
  });

  it('should offer a filter label for every group', () => {
    for (const group of EVENT_GROUPS) {
      expect(Object.hasOwn(en.activity.filters, group)).toBe(true);
    }
    expect(isEventGroup('server.schedule.*')).toBe(true);
    expect(isEventGroup('server.schedule.create')).toBe(false);
  });

  it('should summarise the metadata worth a line, at most two values', () => {
    expect(metadataSummary({ schedule_id: '4', name: 'Nightly', payload: 'say hi', action: 'command' })).toBe('Nightly · say hi');
    expect(metadataSummary({ files: ['a.txt', 'b.txt'], directory: '/' })).toBe('a.txt, b.txt · /');
    expect(metadataSummary({ command: 'say hi' })).toBe('say hi');
    expect(metadataSummary({ nested: { a: 1 }, files: [1, 2], name: '' })).toBe('');
  });
});
