import { readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { ConfigError } from './config';

const say = (line: string) => process.stderr.write(`shinobu: ${line}\n`);

/**
 * Takes the lock that keeps one process at a time on a DATA_DIR's embedded database: a
 * server, a backup or a migration of the store. Answers the function that releases it;
 * throws ConfigError when another running process holds it.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockPath = path.join(dataDir, 'shinobu.lock');
  const take = async () => {
    const unlock = await lockfile.lock(dataDir, {
      lockfilePath: lockPath,
      stale: 15_000,
      update: 5_000,
      onCompromised: () => {
        say(`DATA_DIR: lost the lock on ${dataDir}; stopping to protect the database`);
        process.exit(1);
      },
    });
    await writeLockHolder(lockPath);
    return unlock;
  };
  try {
    try {
      return await take();
    } catch (error) {
      // A holder killed without a chance to unlock (SIGKILL, power loss) is known by its pid.
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || !(await holderIsGone(lockPath)))
        throw error;
      say(`DATA_DIR: the previous holder of ${dataDir} is gone; taking its lock`);
      await rm(lockPath, { recursive: true, force: true });
      return await take();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new ConfigError([
        `DATA_DIR: ${dataDir} is in use by another running Shinobu${await holderPid(lockPath)}; stop it or choose another DATA_DIR`,
      ]);
    }
    throw error;
  }
}

// Beside the lock, not in it: proper-lockfile takes a change inside the lock for a compromise.
const holderFile = (lockPath: string) => `${lockPath}.holder`;

interface LockHolder {
  pid: number;
  host: string;
}

async function writeLockHolder(lockPath: string): Promise<void> {
  const holder: LockHolder = { pid: process.pid, host: hostname() };
  await writeFile(holderFile(lockPath), JSON.stringify(holder));
}

async function readLockHolder(lockPath: string): Promise<LockHolder> {
  return JSON.parse(await readFile(holderFile(lockPath), 'utf8')) as LockHolder;
}

async function holderPid(lockPath: string): Promise<string> {
  try {
    return ` (process ${(await readLockHolder(lockPath)).pid})`;
  } catch {
    return '';
  }
}

/** True only when the lock names a process on this machine that no longer runs. */
async function holderIsGone(lockPath: string): Promise<boolean> {
  try {
    const holder = await readLockHolder(lockPath);
    if (holder.host !== hostname() || holder.pid === process.pid) return false;
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
