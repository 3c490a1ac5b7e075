/**
 * Reads a V8 .cpuprofile (node --cpu-prof) and prints where the time went: the functions with the
 * most self time, and the same time summed by package.
 *   node -r ts-node/register/transpile-only -r tsconfig-paths/register bench/cpu-top.ts <file> [--from s] [--to s] [--top n]
 * --from/--to keep the samples taken that many seconds after the profile started (a load window).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface CpuTop {
  windowMs: number;
  /** Share of the window the main thread was busy (not "(idle)"). */
  busyPct: number;
  functions: { name: string; where: string; selfMs: number; pct: number }[];
  packages: { name: string; selfMs: number; pct: number }[];
}

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

const packageOf = (url: string, name: string): string => {
  if (SPECIAL.has(name) && url === '') {
    return name;
  }
  if (url.startsWith('wasm://')) {
    return 'wasm';
  }
  if (url.startsWith('node:') || (!url.includes('/') && url !== '')) {
    return 'node core';
  }
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) {
    return m[1];
  }
  if (/\/dist\//.test(url)) {
    return 'hatchery (dist)';
  }
  return url === '' ? '(native)' : 'other';
};

const shortUrl = (url: string): string => {
  const m = /node_modules\/(.*)$/.exec(url) ?? /\/(dist\/.*)$/.exec(url);
  return m ? m[1] : url.replace(/^file:\/\//, '');
};

export const cpuTop = (file: string, opts: { fromS?: number; toS?: number; top?: number } = {}): CpuTop => {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const fromUs = (opts.fromS ?? 0) * 1e6;
  const toUs = opts.toS === undefined ? Infinity : opts.toS * 1e6;
  const self = new Map<string, { name: string; where: string; us: number }>();
  const packages = new Map<string, number>();
  let t = 0;
  let windowUs = 0;
  let idleUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (t < fromUs || t > toUs) {
      continue;
    }
    const delta = profile.timeDeltas[i + 1] ?? 0;
    const node = byId.get(profile.samples[i]);
    if (!node || delta <= 0) {
      continue;
    }
    windowUs += delta;
    const { functionName, url, lineNumber } = node.callFrame;
    const name = functionName || '(anonymous)';
    if (name === '(idle)') {
      idleUs += delta;
      continue;
    }
    const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : '';
    const key = `${name}@${where}`;
    const entry = self.get(key) ?? { name, where, us: 0 };
    entry.us += delta;
    self.set(key, entry);
    const pkg = packageOf(url, name);
    packages.set(pkg, (packages.get(pkg) ?? 0) + delta);
  }
  const pct = (us: number): number => Math.round((us / Math.max(1, windowUs)) * 1000) / 10;
  const top = opts.top ?? 25;
  return {
    windowMs: Math.round(windowUs / 1000),
    busyPct: pct(windowUs - idleUs),
    functions: [...self.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((e) => ({ name: e.name, where: e.where, selfMs: Math.round(e.us / 1000), pct: pct(e.us) })),
    packages: [...packages.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, selfMs: Math.round(us / 1000), pct: pct(us) })),
  };
};

export const formatCpuTop = (r: CpuTop): string => {
  const lines = [`window ${r.windowMs} ms, main thread busy ${r.busyPct}%`, '', 'self time by function:'];
  for (const f of r.functions) {
    lines.push(`  ${String(f.pct).padStart(5)}%  ${String(f.selfMs).padStart(6)} ms  ${f.name}  ${f.where}`);
  }
  lines.push('', 'self time by package:');
  for (const p of r.packages) {
    lines.push(`  ${String(p.pct).padStart(5)}%  ${String(p.selfMs).padStart(6)} ms  ${p.name}`);
  }
  return lines.join('\n');
};

if (require.main === module) {
  const args = process.argv.slice(2);
  const opt = (name: string): number | undefined => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) : undefined;
  };
  const file = args.find((a) => a.endsWith('.cpuprofile'));
  if (!file) {
    process.stderr.write('usage: bench/cpu-top.ts <file.cpuprofile> [--from s] [--to s] [--top n]\n');
    process.exit(2);
  }
  process.stdout.write(`${formatCpuTop(cpuTop(file, { fromS: opt('from'), toS: opt('to'), top: opt('top') }))}\n`);
}
