// `npm run test:size` (part of npm test, after the build): the JavaScript and CSS a first visit loads
// (index.html's entry script, its modulepreloads and stylesheets), gzipped, against the budgets. Route
// chunks loaded later (the console's terminal, the file editor) are not part of it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = { js: 250, css: 40 };
const dir = fileURLToPath(new URL('../../dist/web', import.meta.url));
const html = readFileSync(join(dir, 'index.html'), 'utf8');
const refs = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
const totals = { js: 0, css: 0 };
for (const ref of new Set(refs)) {
  const kind = ref.endsWith('.css') ? 'css' : ref.endsWith('.js') ? 'js' : undefined;
  if (kind) {
    const size = gzipSync(readFileSync(join(dir, ref))).length;
    totals[kind] += size;
    process.stdout.write(`  ${ref}  ${(size / 1024).toFixed(1)} KB gz\n`);
  }
}
let failed = false;
for (const kind of ['js', 'css']) {
  const kb = totals[kind] / 1024;
  const over = kb > BUDGET_KB[kind];
  failed ||= over;
  process.stdout.write(`web: initial ${kind.toUpperCase()} ${kb.toFixed(1)} KB gz (budget ${BUDGET_KB[kind]} KB)${over ? ' OVER BUDGET' : ''}\n`);
}
if (refs.length === 0) {
  process.stderr.write('web: no assets referenced by dist/web/index.html\n');
  failed = true;
}
process.exit(failed ? 1 : 0);
