import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { ConfigError } from '../config';

/** The lock of a backup, restore or move: minutes of busy work between its refreshes are fine. */
export const COMMAND_LOCK = { staleMs: 10 * 60_000 };

const say = (line: string) => process.stderr.write(`shinobu: ${line}\n`);

/**
 * Takes the lock that keeps one process at a time on a DATA_DIR's embedded database: a
 * server, a backup or a migration of the store. Answers the function that releases it;
 * throws ConfigError when another running process holds it. `staleMs` is how late the
 * holder's own refresh may come before it counts its lock as lost: a command that keeps the
 * event loop busy for long (PGlite's dump) needs more than a server.
 */
export async function lockDataDir(
  dataDir: string,
  { staleMs = 15_000 } = {},
): Promise<() => Promise<void>> {
  const lockPath = path.join(dataDir, 'shinobu.lock');
  const take = async () => {
    // A holder running on this machine keeps its lock however late its refresh comes.
    if (existsSync(lockPath) && (await holderIsAlive(lockPath))) {
      throw Object.assign(new Error('locked'), { code: 'ELOCKED' });
    }
    const unlock = await lockfile.lock(dataDir, {
      lockfilePath: lockPath,
      stale: staleMs,
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
    // A holder killed without a chance to unlock (SIGKILL, power loss) is known by its pid,
    // whether or not its lock has meanwhile gone stale: the log says why the lock was taken.
    if (existsSync(lockPath) && (await holderIsGone(lockPath))) {
      say(`DATA_DIR: the previous holder of ${dataDir} is gone; taking its lock`);
      await rm(lockPath, { recursive: true, force: true });
    }
    return await take();
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

/** True when the lock names another process of this machine that still runs. */
async function holderIsAlive(lockPath: string): Promise<boolean> {
  try {
    const holder = await readLockHolder(lockPath);
    if (holder.host !== hostname() || holder.pid === process.pid) return false;
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
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
