import { spawn, type ChildProcess } from 'node:child_process';

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first stdout line that contains `text` (a JSON log line). */
  waitForLog(text: string): Promise<string>;
  /** The exit code, once the process has ended. */
  exited: Promise<number | null>;
}

/**
 * Starts `node scripts/start.mjs` (what `npm start` runs, without npm's parent process, so
 * that a signal reaches the server itself) with the given environment on top of a quiet,
 * test-safe one.
 */
export function startServer(env: Record<string, string>): ServerProcess {
  const port = env.PORT ?? '0';
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SHINOBU_SKIP_BUILD: 'true',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      RUN_JOBS: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: { text: string; resolve: (line: string) => void }[] = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const waiter of [...waiters]) {
      const line = stdout.split('\n').find((candidate) => candidate.includes(waiter.text));
      if (line) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitForLog: (text) => {
      const seen = stdout.split('\n').find((line) => line.includes(text));
      if (seen) return Promise.resolve(seen);
      return Promise.race([
        new Promise<string>((resolve) => waiters.push({ text, resolve })),
        exited.then((code) => {
          throw new Error(`server exited (${code}) before logging "${text}":\n${stderr}`);
        }),
      ]);
    },
  };
}

/** Starts a server and waits until it says it is ready (it has migrated and listens). */
export async function startReadyServer(env: Record<string, string>): Promise<ServerProcess> {
  const server = startServer(env);
  await server.waitForLog('Shinobu is ready');
  return server;
}

/** Sends the signal and answers the exit code. */
export async function stopServer(
  server: ServerProcess,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<number | null> {
  if (server.child.exitCode === null) server.child.kill(signal);
  return server.exited;
}

/**
 * Runs an operations command (`scripts/<name>.ts`, as its npm script does) to its end with
 * the given environment; answers its exit code and standard error.
 */
export function runScript(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}
