import { errorMessage } from 'src/common/errors/error-message';

describe('errorMessage', () => {
  it("should give an error's message", () => {
    expect(errorMessage(new Error('connect ECONNREFUSED 127.0.0.1:6432'))).toBe('connect ECONNREFUSED 127.0.0.1:6432');
  });

  it("should read pg-boss's worker error events, plain objects (before: [object Object] in the log)", () => {
    const event = { ...new Error('x'), message: 'connect ECONNREFUSED 127.0.0.1:6432 (Queue: usage.sample, Worker: a1b2)', stack: '…', queue: 'usage.sample', worker: 'a1b2' };
    expect(errorMessage(event)).toBe('connect ECONNREFUSED 127.0.0.1:6432 (Queue: usage.sample, Worker: a1b2)');
  });

  it('should name an error with no message by its code and its parts (a connection refused on every address)', () => {
    const refused = Object.assign(new AggregateError([new Error('connect ECONNREFUSED ::1:5432'), new Error('connect ECONNREFUSED 127.0.0.1:5432')], ''), { code: 'ECONNREFUSED' });
    expect(errorMessage(refused)).toBe('ECONNREFUSED: connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432');
  });

  it('should show what is neither', () => {
    expect(errorMessage('boom')).toBe('boom');
    expect(errorMessage({ state: 'odd' })).toBe('{"state":"odd"}');
    expect(errorMessage(undefined)).toBe('undefined');
  });

  it('should name an error that says nothing else by its kind, and not throw on what JSON cannot write', () => {
    expect(errorMessage(new TypeError(''))).toBe('TypeError');
    const loop: { self?: unknown } = {};
    loop.self = loop;
    expect(errorMessage(loop)).toBe('[object Object]');
  });
});
