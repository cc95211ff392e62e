/**
 * Ending-note figures. "Save-section p99 at 20 connections": 20 concurrent clients, each a
 * member saving the sealed section of their own note again and again, every save naming the
 * version its previous save answered (as the screen does, so none is stale), against the
 * production server (`npm start`) on PGlite and, with DATABASE_URL, PostgreSQL.
 * Members are connections of each other.
 */
import path from 'node:path';
import autocannon from 'autocannon';
import { openDatabase } from '../server/db/database';
import { connections } from '../server/db/schema';
import { systemClock } from '../server/lib/clock';
import { createMember, type TestMember } from '../test/support/members';
import { createBenchSite, startServer, type BenchSite } from './server';
import type { BenchModule, BenchOptions, BenchRow } from './types';

/** In the ending note's port range (4280-4289). */
const PORT = 4280;
const CONNECTIONS = 20;
const WARM_UP_SECONDS = 2;
/** More members than connections, so a free member is at hand even if a request is lost. */
const MEMBERS = 2 * CONNECTIONS;

function openSiteDatabase(site: BenchSite) {
  return openDatabase(
    site.env.DATABASE_URL
      ? { kind: 'postgres', url: site.env.DATABASE_URL }
      : { kind: 'pglite', dataDir: path.join(site.env.DATA_DIR!, 'pgdata') },
  );
}

/** The site's member and more, every pair connected, written before the server starts. */
async function seedMembers(site: BenchSite): Promise<TestMember[]> {
  const database = await openSiteDatabase(site);
  try {
    const maker = {
      ctx: { database },
      clock: systemClock(),
      config: { authSecret: site.env.AUTH_SECRET! },
    };
    const members = [site.member];
    while (members.length < MEMBERS) members.push(await createMember(maker));
    await database.db
      .insert(connections)
      .values(
        members.flatMap((member) =>
          members
            .filter((other) => other !== member)
            .map((other) => ({ userId: member.id, otherUserId: other.id })),
        ),
      );
    return members;
  } finally {
    await database.close();
  }
}

const assetValues = {
  held: ['deposits', 'insurance', 'debts'],
  bank_accounts: 'みずほ銀行 本店 普通 1234567\nゆうちょ銀行 記号 10000 番号 12345678',
  insurance: '日本生命 終身保険 証券番号 AB-123456 受取人 妻',
  debts: '住宅ローン 残高 約800万円',
};

/** autocannon keeps a context only from a request's setup to its response. */
interface RequestContext {
  member?: TestMember;
}

async function benchSaves(kind: string, options: BenchOptions): Promise<BenchRow> {
  const site = await createBenchSite(kind === 'postgres' ? options.databaseUrl : undefined);
  try {
    const members = await seedMembers(site);
    const server = await startServer(site.env, PORT);
    try {
      const probe = await fetch(`${server.url}/v1/endingnote/${members[0]!.id}`, {
        headers: { authorization: `Bearer ${members[0]!.token}` },
      });
      if (!probe.ok) throw new Error(`the note answered ${probe.status}: ${await probe.text()}`);
      // A member saves again only after their previous save answered, from its version.
      const idle = [...members];
      const versions = new Map(members.map((member) => [member.id, 0]));
      const run = (duration: number) =>
        autocannon({
          url: server.url,
          connections: CONNECTIONS,
          duration,
          requests: [
            {
              method: 'PUT',
              setupRequest: (request, context: RequestContext) => {
                const member = idle.shift()!;
                context.member = member;
                return {
                  ...request,
                  path: `/v1/endingnote/${member.id}/sections/assets`,
                  headers: {
                    authorization: `Bearer ${member.token}`,
                    'content-type': 'application/json',
                  },
                  body: JSON.stringify({ version: versions.get(member.id), values: assetValues }),
                };
              },
              onResponse: (status, body, context: RequestContext) => {
                const member = context.member!;
                if (status === 200) {
                  versions.set(member.id, (JSON.parse(body) as { version: number }).version);
                }
                idle.push(member);
              },
            },
          ],
        });
      await run(WARM_UP_SECONDS);
      const result = await run(options.durationSeconds);
      options.log(
        `save-section (${kind}): ${result.requests.total} saves, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.non2xx} non-2xx, ${result.errors} errors`,
      );
      const failures = result.non2xx + result.errors + result.timeouts;
      const answered = result.requests.total - result.non2xx;
      return {
        name: `Save-section p99 at ${CONNECTIONS} connections (${kind})`,
        value: answered > 0 ? result.latency.p99 : undefined,
        unit: 'ms',
        ...(failures > 0 ? { note: `${failures} failed requests` } : {}),
      };
    } finally {
      await server.stop();
    }
  } finally {
    await site.remove();
  }
}

export const endingNoteBench: BenchModule = {
  title: 'endingnote',
  run: async (options) => [
    await benchSaves('pglite', options),
    ...(options.databaseUrl ? [await benchSaves('postgres', options)] : []),
  ],
};
