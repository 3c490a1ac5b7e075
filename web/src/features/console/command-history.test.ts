import { describe, expect, it } from 'vitest';
import { appendHistory, HISTORY_LIMIT, loadHistory, saveHistory, stepHistory, type HistoryCursor } from '@/features/console/command-history';

const memoryStorage = () => {
  const data = new Map<string, string>();
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
};

describe('command history', () => {
  it('should keep the last 100 entries per server, without repeating the newest', () => {
    let entries: string[] = [];
    for (let i = 0; i < 120; i++) {
      entries = appendHistory(entries, `cmd ${i}`);
    }
    entries = appendHistory(entries, 'cmd 119');
    entries = appendHistory(entries, '   ');
    expect(entries).toHaveLength(HISTORY_LIMIT);
    expect(entries[0]).toBe('cmd 20');
    expect(entries.at(-1)).toBe('cmd 119');

    const storage = memoryStorage();
    saveHistory(storage, 's1', entries);
    expect(loadHistory(storage, 's1')).toEqual(entries);
    expect(loadHistory(storage, 's2')).toEqual([]);
    storage.data.set('hatchery.console.history.s3', '{broken');
    expect(loadHistory(storage, 's3')).toEqual([]);
  });

  it('should walk up to the oldest and back down to the line being typed', () => {
    const entries = ['a', 'b', 'c'];
    let cursor: HistoryCursor = { index: null, draft: '' };
    const texts: string[] = [];
    let text = 'typing';
    for (const dir of ['up', 'up', 'up', 'up', 'down', 'down', 'down', 'down'] as const) {
      ({ cursor, text } = stepHistory(entries, cursor, text, dir));
      texts.push(text);
    }
    expect(texts).toEqual(['c', 'b', 'a', 'a', 'b', 'c', 'typing', 'typing']);
    expect(stepHistory([], { index: null, draft: '' }, 'x', 'up').text).toBe('x');
  });
});
