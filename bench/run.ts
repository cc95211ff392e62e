/**
 * `npm run bench [-- --json FILE] [--only TITLE,...]`: runs every module of bench/modules.ts
 * and prints one table. DATABASE_URL adds the PostgreSQL rows; BENCH_DURATION_S shortens the
 * load runs (10 s by default).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_MODULES } from './modules';
import type { BenchOptions, BenchRow } from './types';

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

function formatValue(row: BenchRow): string {
  if (row.value === undefined) return '—';
  switch (row.unit) {
    case 'bytes':
      return `${(row.value / 1024).toFixed(1)} KB`;
    case 'ms':
      return `${Math.round(row.value)} ms`;
    case 'req/s':
      return `${Math.round(row.value).toLocaleString('en')} req/s`;
    case '%':
      return `${row.value.toFixed(0)} %`;
    case 'ratio':
      return row.value.toFixed(2);
    case 'score':
      return String(Math.round(row.value));
    case 'count':
      return Math.round(row.value).toLocaleString('en');
  }
}

function table(rows: (BenchRow & { group: string })[]): string {
  const lines = rows.map((row) => [
    row.group,
    row.name,
    formatValue(row),
    row.target ?? '',
    row.met === undefined ? '' : row.met ? 'yes' : 'NO',
    row.note ?? '',
  ]);
  const header = ['group', 'figure', 'value', 'target', 'met', 'note'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column]!.length)),
  );
  const format = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [
    format(header),
    format(widths.map((width) => '-'.repeat(width))),
    ...lines.map(format),
  ].join('\n');
}

async function main(): Promise<void> {
  const only = argument('--only')?.split(',');
  const jsonFile = argument('--json');
  const options: BenchOptions = {
    databaseUrl: process.env.DATABASE_URL || undefined,
    durationSeconds: Number(process.env.BENCH_DURATION_S ?? 10),
    log: (line) => process.stderr.write(`bench: ${line}\n`),
  };
  const rows: (BenchRow & { group: string })[] = [];
  for (const module of BENCH_MODULES) {
    if (only && !only.includes(module.title)) continue;
    options.log(`${module.title}...`);
    try {
      rows.push(...(await module.run(options)).map((row) => ({ group: module.title, ...row })));
    } catch (error) {
      rows.push({
        group: module.title,
        name: 'run',
        value: undefined,
        unit: 'ms',
        met: false,
        note: `failed: ${(error as Error).message.split('\n')[0]}`,
      });
    }
  }
  console.info(table(rows));
  if (jsonFile) {
    mkdirSync(path.dirname(path.resolve(jsonFile)), { recursive: true });
    const machine = { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version };
    writeFileSync(
      jsonFile,
      `${JSON.stringify({ date: new Date().toISOString(), machine, rows }, null, 2)}\n`,
    );
  }
}

await main();
