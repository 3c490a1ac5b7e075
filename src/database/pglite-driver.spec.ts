import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { EmbeddedDatabaseLock } from 'src/database/pglite-driver';

/** A child process that stays alive until killed, to stand for another panel holding the lock. */
const startSleeper = (): Promise<ChildProcess> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    child.once('spawn', () => resolve(child));
    child.once('error', reject);
  });

/** The pid of a process that has already exited. */
const deadPid = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve(child.pid!));
  });

describe(EmbeddedDatabaseLock.name, () => {
  let dir: string;
  let dataDir: string;
  let lockFile: string;
  let sleeper: ChildProcess | undefined;

  const writeLock = (content: string): void => {
    mkdirSync(dirname(lockFile), { recursive: true });
    writeFileSync(lockFile, content);
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hatchery-lock-'));
    dataDir = join(dir, 'data', 'pglite');
    lockFile = `${dataDir}.lock`;
  });

  afterEach(() => {
    sleeper?.kill('SIGKILL');
    sleeper = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  describe('acquire', () => {
    it('should write this pid beside the data directory, creating its parent, when no lock exists', () => {
      new EmbeddedDatabaseLock(dataDir).acquire();
      expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
      expect(existsSync(join(dataDir, '.lock'))).toBe(false);
    });

    it('should put the lock file beside the directory when the data directory has a trailing slash', () => {
      new EmbeddedDatabaseLock(`${dataDir}//`).acquire();
      expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    });

    it('should throw an error naming the holder and keep its lock when a live process holds it', async () => {
      sleeper = await startSleeper();
      const pid = sleeper.pid!;
      const sut = new EmbeddedDatabaseLock(dataDir);
      writeLock(`${pid}\n`);

      expect(() => sut.acquire()).toThrow(`The embedded database in ${join(dir, 'data')} is in use by process ${pid}.`);
      expect(readFileSync(lockFile, 'utf8')).toBe(`${pid}\n`);
    });

    it('should take the lock over when the pid in it belongs to a dead process', async () => {
      const pid = await deadPid();
      writeLock(String(pid));

      new EmbeddedDatabaseLock(dataDir).acquire();
      expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    });

    it.each([
      ['garbage', 'not a pid'],
      ['empty', ''],
      ['zero', '0'],
      // process.kill(-1, 0) would probe every process and succeed, so a negative pid must not count as alive.
      ['negative', '-1'],
    ])('should take the lock over when the lock file is %s', (_label, content) => {
      writeLock(content);
      new EmbeddedDatabaseLock(dataDir).acquire();
      expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    });

    it('should succeed when this process already holds the lock', () => {
      const sut = new EmbeddedDatabaseLock(dataDir);
      sut.acquire();
      expect(() => sut.acquire()).not.toThrow();
      expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    });
  });

  describe('release', () => {
    it('should remove the lock file when this process holds it', () => {
      const sut = new EmbeddedDatabaseLock(dataDir);
      sut.acquire();
      sut.release();
      expect(existsSync(lockFile)).toBe(false);
    });

    it('should leave the lock file alone when another process holds it', async () => {
      sleeper = await startSleeper();
      const sut = new EmbeddedDatabaseLock(dataDir);
      sut.acquire();
      writeFileSync(lockFile, String(sleeper.pid)); // another process took it over in the meantime
      sut.release();
      expect(readFileSync(lockFile, 'utf8')).toBe(String(sleeper.pid));
    });

    it('should do nothing when there is no lock file', () => {
      const sut = new EmbeddedDatabaseLock(dataDir);
      expect(() => sut.release()).not.toThrow();
      expect(existsSync(lockFile)).toBe(false);
    });
  });
});
