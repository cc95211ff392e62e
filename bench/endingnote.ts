/**
 * Save-section p99 at 20 connections: an owner with 20 connections, all designated readers,
 * saves the sealed 財産 section again and again over real HTTP, each save naming the version
 * the previous one answered (as the screen does). Run: `npx tsx bench/endingnote.ts`
 * (PGlite; `API_TEST_DATABASE=postgres TEST_DATABASE_URL=… ` for PostgreSQL).
 */
import { performance } from 'node:perf_hooks';
import { connectMembers, createMember } from '../test/support/members';
import { createTestApp } from '../test/support/testApp';

const CONNECTIONS = 20;
const WARMUP_SAVES = 50;
const MEASURED_SAVES = 500;
const PORT = Number(process.env.BENCH_PORT ?? 4281);

export interface BenchRow {
  name: string;
  value: string;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function benchEndingNote(): Promise<BenchRow[]> {
  const t = await createTestApp();
  try {
    const owner = await createMember(t);
    const readers = [];
    for (let i = 0; i < CONNECTIONS; i += 1) {
      const reader = await createMember(t);
      await connectMembers(t, owner, reader);
      readers.push(reader.id);
    }
    const base = await t.app.listen({ host: '127.0.0.1', port: PORT });
    const headers = { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' };
    const put = (url: string, body: unknown) =>
      fetch(`${base}${url}`, { method: 'PUT', headers, body: JSON.stringify(body) });
    const designated = await put(`/v1/endingnote/${owner.id}/readers`, { user_ids: readers });
    if (!designated.ok) throw new Error(`designating readers failed: ${designated.status}`);

    let version = 0;
    const timings: number[] = [];
    for (let i = 0; i < WARMUP_SAVES + MEASURED_SAVES; i += 1) {
      const started = performance.now();
      const response = await put(`/v1/endingnote/${owner.id}/sections/assets`, {
        version,
        values: {
          held: ['deposits', 'insurance'],
          bank_accounts: `みずほ銀行 本店 普通 ${1000000 + i}\nゆうちょ銀行 記号 10000 番号 ${i}`,
          insurance: '日本生命 終身保険 証券番号 AB-123456 受取人 妻',
          debts: '住宅ローン 残高 約800万円',
        },
      });
      const saved = (await response.json()) as { version: number };
      if (!response.ok) throw new Error(`save failed: ${response.status}`);
      if (i >= WARMUP_SAVES) timings.push(performance.now() - started);
      version = saved.version;
    }
    timings.sort((a, b) => a - b);
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    return [
      {
        name: `Save-section p99 at ${CONNECTIONS} connections (${t.ctx.database.kind})`,
        value: ms(percentile(timings, 99)),
      },
      { name: 'Save-section p50', value: ms(percentile(timings, 50)) },
    ];
  } finally {
    await t.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchEndingNote();
  for (const row of rows) process.stdout.write(`${row.name}\t${row.value}\n`);
}
