/**
 * The buffered log destination of production (server/http/logDestination.ts) in real
 * processes: a line held in the buffer still reaches standard output when the process ends
 * by itself, calls process.exit, or dies of an uncaught error; and on a quiet process the
 * flush timer writes it without waiting for 4 kB of company.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const DESTINATION = path.resolve('server/http/logDestination.ts');

interface Ended {
  code: number | null;
  stdout: string;
  /** Milliseconds from spawn to the first stdout byte. */
  firstOutputMs: number | undefined;
}

/** Runs `ending` after one log line written through a destination with `flushMs`. */
function run(flushMs: number, ending: string): Promise<Ended> {
  const script = `
    const { default: pino } = await import('pino');
    const { logDestination } = await import(${JSON.stringify(DESTINATION)});
    const log = pino({}, logDestination(${flushMs}).stream);
    log.info('last words');
    ${ending}
  `;
  const startedAt = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    // The uncaught error's stack goes to stderr, which is not what is checked.
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let stdout = '';
  let firstOutputMs: number | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    firstOutputMs ??= performance.now() - startedAt;
    stdout += chunk;
  });
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, firstOutputMs })),
  );
}

const lastWords = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { msg: string }).msg);

describe('the buffered log destination', () => {
  // A flush timer of a minute: only the exit paths can have written the line.
  it('writes a buffered line when the process calls process.exit', async () => {
    const ended = await run(60_000, 'process.exit(3);');
    expect(ended.code).toBe(3);
    expect(lastWords(ended.stdout)).toEqual(['last words']);
  });

  it('writes a buffered line when the process dies of an uncaught error', async () => {
    const ended = await run(60_000, "setTimeout(() => { throw new Error('fatal'); }, 10);");
    expect(ended.code).toBe(1);
    expect(lastWords(ended.stdout)).toEqual(['last words']);
  });

  it('writes a buffered line when the process runs out of work', async () => {
    const ended = await run(60_000, '');
    expect(ended.code).toBe(0);
    expect(lastWords(ended.stdout)).toEqual(['last words']);
  });

  it('writes a lone line on a quiet process within the flush time', async () => {
    const kept = await run(100, 'setTimeout(() => process.exit(0), 3_000);');
    expect(lastWords(kept.stdout)).toEqual(['last words']);
    // Written by the timer, long before the exit 3 s later (start-up takes under a second).
    expect(kept.firstOutputMs).toBeLessThan(2_500);
  });

  it('writes each line at once with a flush time of 0', async () => {
    const ended = await run(0, 'process.exit(0);');
    expect(lastWords(ended.stdout)).toEqual(['last words']);
  });
});
