/** The rows `npm run bench` measures and the table it prints (also used for docs/benchmarks.md). */
import { readFileSync } from 'node:fs';
import type { LoadResult } from 'bench/load';

export interface Target {
  text: string;
  met: boolean;
  /** For a target of several parts, each part's verdict (`pass / MISS`); `met` is all of them. */
  parts?: boolean[];
}

export interface Row {
  id: string;
  scenario: string;
  connections?: number;
  rps?: number;
  p50Ms?: number;
  p99Ms?: number;
  non2xx?: number;
  /** Connection errors and timeouts (a clean run has none). */
  errors?: number;
  peakRssMiB?: number | null;
  /** CPU time (user + system, all threads) the panel spent per request in the measured window. */
  panelCpuMsPerReq?: number | null;
  target?: Target;
  load?: LoadResult;
  extra?: Record<string, unknown>;
}

const cell = (v: number | string | null | undefined, digits = 1): string =>
  v === undefined || v === null ? '—' : typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : v;

const verdict = (r: Row): string => {
  if ((r.non2xx ?? 0) > 0 || (r.errors ?? 0) > 0) {
    return 'ERRORS';
  }
  const word = (met: boolean): string => (met ? 'pass' : 'MISS');
  return r.target ? (r.target.parts?.map(word).join(' / ') ?? word(r.target.met)) : '—';
};

export const formatTable = (list: Row[]): string => {
  const header = ['scenario', 'conn.', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'peak RSS MiB', 'panel CPU ms/req', 'target', 'result'];
  const body = list.map((r) => [
    r.scenario,
    r.connections === undefined ? '—' : String(r.connections),
    cell(r.rps, 0),
    cell(r.p50Ms, 2),
    cell(r.p99Ms, 2),
    r.non2xx === undefined ? '—' : String(r.non2xx + (r.errors ?? 0)),
    cell(r.peakRssMiB, 0),
    cell(r.panelCpuMsPerReq, 2),
    r.target?.text ?? '—',
    verdict(r),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => (i === 0 || i === 8 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 0 || i === 8 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...body.map(line)].join('\n');
};


if (require.main === module) {
  // Prints the table of a results file again (default: bench/results/latest.json), e.g. for the README.
  const file = process.argv[2] ?? `${__dirname}/../results/latest.json`;
  const report = JSON.parse(readFileSync(file, 'utf8')) as { scenarios: Row[] };
  process.stdout.write(`${formatTable(report.scenarios)}\n`);
}
