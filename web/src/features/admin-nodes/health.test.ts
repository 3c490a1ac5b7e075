import { describe, expect, it } from 'vitest';
import { nodeConnection } from '@/features/admin-nodes/health';

const never = { daemonContactedAt: null };
const heard = { daemonContactedAt: '2026-11-27T12:00:00.000Z' };

describe('nodeConnection', () => {
  it('should wait for Wings on a node never heard from that does not answer, and call one heard from before unreachable', () => {
    expect(nodeConnection(never, { isPending: false, isError: true })).toBe('waiting');
    expect(nodeConnection(heard, { isPending: false, isError: true })).toBe('unreachable');
  });

  it('should be healthy when the daemon answers, whatever was recorded, and checking while it is asked', () => {
    expect(nodeConnection(never, { isPending: false, isError: false })).toBe('healthy');
    expect(nodeConnection(heard, { isPending: false, isError: false })).toBe('healthy');
    expect(nodeConnection(never, { isPending: true, isError: false })).toBe('checking');
  });
});
