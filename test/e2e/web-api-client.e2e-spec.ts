import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The web UI's API types (web/src/api/schema.d.ts) are generated from the panel's OpenAPI document
 * (`npm run gen:api`); this fails when a route or DTO changed and the file was not regenerated.
 * It builds first (`npm run build`: nothing to do when fresh, as in `npm test`, which builds first).
 */
const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');

describe('web UI API client', () => {
  it('should match the OpenAPI document of the current sources', async () => {
    await run('npm', ['run', '-s', 'build'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    const check = await run(process.execPath, ['web/scripts/gen-api.mjs', '--check'], { cwd: ROOT }).then(
      (r) => ({ code: 0, out: r.stdout + r.stderr }),
      (err: { code?: number; stdout?: string; stderr?: string }) => ({ code: err.code ?? 1, out: `${err.stdout ?? ''}${err.stderr ?? ''}` }),
    );
    expect(check).toEqual({ code: 0, out: 'web/src/api/schema.d.ts is up to date.\n' });
  }, 600_000);
});
