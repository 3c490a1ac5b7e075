import { describe, expect, it } from 'vitest';
import { consoleHealth } from '@/features/console/node-status';

const UNREACHABLE = { kind: 'unreachable', nodeId: '7', code: 'DAEMON_TIMEOUT' } as const;
const LIVE = { kind: 'live', currentState: 'running', isSuspended: false, resources: null } as const;

describe('consoleHealth', () => {
  it('should say the node is not answering, with power off, when live status says so while the socket still connects', () => {
    expect(consoleHealth({ phase: 'connecting', attempt: 1 }, null, 'offline', UNREACHABLE)).toEqual({ status: 'unreachable', nodeDown: true, diagnosis: { kind: 'node-down' } });
  });

  it('should say so too when the socket is connected but the node went quiet', () => {
    expect(consoleHealth({ phase: 'connected' }, 'running', 'offline', UNREACHABLE)).toMatchObject({ status: 'unreachable', nodeDown: true, diagnosis: { kind: 'node-down' } });
  });

  it("should replace the socket's vaguer reasons, and keep the ones that say more", () => {
    const reconnecting = { phase: 'reconnecting', attempt: 2, delayMs: 2000, diagnosis: { kind: 'unreachable', socket: 'ws://n' } } as const;
    expect(consoleHealth(reconnecting, null, 'offline', UNREACHABLE).diagnosis).toEqual({ kind: 'node-down' });
    expect(consoleHealth({ phase: 'failed', diagnosis: { kind: 'suspended' } }, null, 'offline', UNREACHABLE).diagnosis).toEqual({ kind: 'suspended' });
  });

  it("should show the node's status and the socket's own diagnosis when the node answers the panel", () => {
    expect(consoleHealth({ phase: 'connected' }, 'running', 'offline', LIVE)).toEqual({ status: 'running', nodeDown: false, diagnosis: undefined });
    expect(consoleHealth({ phase: 'connecting', attempt: 1 }, null, 'offline', undefined)).toEqual({ status: 'offline', nodeDown: false, diagnosis: undefined });
    expect(consoleHealth({ phase: 'failed', diagnosis: { kind: 'access-removed' } }, null, 'offline', LIVE).diagnosis).toEqual({ kind: 'access-removed' });
  });
});
