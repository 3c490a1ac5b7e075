/**
 * The load generator for `npm run bench`: a child process (bench/run.ts forks it) that runs
 * autocannon against one URL per job and answers over IPC. Latencies are taken from autocannon's
 * per-response events at full hrtime precision (its own histogram keeps whole milliseconds).
 */
import autocannon from 'autocannon';
import { errorMessage } from 'src/common/errors/error-message';

export interface LoadJob {
  /** Origin and first path, e.g. http://127.0.0.1:3000/api/client/servers/abcd1234 */
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Paths requested in turn (all connections share the rotation); `url`'s path when absent. */
  paths?: string[];
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** Responses outside 2xx, connection errors and timeouts: a clean run has 0 of each. */
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

interface Run {
  result: autocannon.Result;
  latencies: number[];
}

const once = (job: LoadJob, seconds: number): Promise<Run> =>
  new Promise((resolve, reject) => {
    const latencies: number[] = [];
    let next = 0;
    const paths = job.paths;
    const instance = autocannon(
      {
        url: job.url,
        method: job.method ?? 'GET',
        headers: job.headers,
        body: job.body,
        connections: job.connections,
        duration: seconds,
        timeout: 10,
        requests: paths?.length ? [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }] : undefined,
      },
      (err, result) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve({ result, latencies })),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

const round = (v: number, digits = 2): number => Number(v.toFixed(digits));

export const runJob = async (job: LoadJob): Promise<LoadResult> => {
  if (job.warmupSeconds > 0) {
    await once(job, job.warmupSeconds);
  }
  const { result, latencies } = await once(job, job.durationSeconds);
  const sorted = Float64Array.from(latencies).sort();
  const values = Array.from(sorted);
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) {
    statusCodes[code] = (stat as { count: number }).count;
  }
  return {
    requests: result.requests.total,
    seconds: result.duration,
    rps: round(result.requests.total / result.duration, 1),
    latencyMs: {
      p50: round(percentile(values, 50)),
      p90: round(percentile(values, 90)),
      p99: round(percentile(values, 99)),
      max: round(values.length ? values[values.length - 1] : 0),
      mean: round(values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)),
    },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
  };
};

if (require.main === module) {
  process.on('message', (msg: { id: number; job: LoadJob }) => {
    runJob(msg.job).then(
      (result) => process.send?.({ id: msg.id, result }),
      (err: unknown) => process.send?.({ id: msg.id, error: errorMessage(err) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
