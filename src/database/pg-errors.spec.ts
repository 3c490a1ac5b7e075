import { QueryFailedError } from 'typeorm';
import { databasePorts, isDatabaseUnavailable } from 'src/database/pg-errors';

const ports = new Set([6432, 5432]);
const refused = (port: number) => Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:${port}`), { code: 'ECONNREFUSED', syscall: 'connect', address: '127.0.0.1', port });
const failed = (driverError: object) => new QueryFailedError('SELECT 1', [], Object.assign(new Error('failed'), driverError));

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a connection refused at the pooler', refused(6432)],
    ['one refused on every address (AggregateError)', Object.assign(new AggregateError([refused(5432), refused(5432)], ''), { code: 'ECONNREFUSED' })],
    ['a connection lost mid-statement', new Error('Connection terminated unexpectedly')],
    ["pg-pool's wait for a connection run out", new Error('timeout exceeded when trying to connect')],
    ['the server shutting down (57P01)', failed({ code: '57P01' })],
    ['the server starting up (57P03)', failed({ code: '57P03' })],
    ['too many connections (53300)', failed({ code: '53300' })],
    ['a connection failure (08006)', failed({ code: '08006' })],
  ])('should tell %s', (_what, e) => {
    expect(isDatabaseUnavailable(e, ports)).toBe(true);
  });

  it.each([
    ["another service's connection refused (a MySQL host)", refused(3306)],
    ['a unique violation', failed({ code: '23505' })],
    ['a syntax error', failed({ code: '42601' })],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error', 'boom'],
  ])('should not take %s for it', (_what, e) => {
    expect(isDatabaseUnavailable(e, ports)).toBe(false);
  });

  it("should know the ports of DATABASE_URL and DATABASE_DIRECT_URL, PostgreSQL's by default, none embedded", () => {
    const config = { kind: 'postgres', url: 'postgres://u@pgbouncer:6432/hatchery', directUrl: 'postgres://u@db/hatchery', pooled: true, poolMax: 10, runMigrations: true } as const;
    expect([...databasePorts(config)]).toEqual([6432, 5432]);
    expect([...databasePorts({ kind: 'pglite', dataDir: './data', runMigrations: true } as never)]).toEqual([]);
  });
});
