/**
 * Accounts figures: `POST /v1/login` p50, p99 and req/s at 20 connections with the cost of
 * one argon2id hash beside them, `POST /v1/refresh` req/s, and the rate limiter under a
 * flood, against the production server (`npm start`) on PGlite and, with
 * DATABASE_URL, PostgreSQL.
 *
 * - Login: 20 members with a password, signed in round-robin, every attempt with the right
 *   password (a success costs one argon2id verification, as a failure does). All load comes
 *   from one address, so the server runs with `LOGIN_MAX_ATTEMPTS_PER_CLIENT=0`; a success
 *   takes back its count on the account, so the account counters stay at zero.
 * - Wrong passwords: members' emails with a wrong password (five per member, far below the
 *   account's cap), then addresses with no account (a new one each time): their p50s side
 *   by side, the timing half of "the answer for an unknown email is the same" (a ratio near
 *   1; tests never time anything).
 * - Flood: 50 connections of `POST /v1/password_reset` from one address for
 *   BENCH_DURATION_S seconds, under the default mail limit (20 per hour per address): the
 *   share the limiter refuses (429), and the p99 of an unrelated authenticated read
 *   (`GET /v1/user/{id}`, 2 connections) during the flood against its p99 before it.
 * - Refresh: refresh tokens rotate, so each token is good for one request. Two families per
 *   member are started in the database before the server starts (as two sign-ins would);
 *   their tokens are the pool. A request takes a token from the pool and its answer puts
 *   the successor back, so every request presents a valid, unspent token and every answer
 *   should be 200 (a 401 would be a lost token, or reuse detection firing wrongly, and is
 *   reported).
 * - Each login costs a whole scrypt hash, so the login runs are a number of answers
 *   (LOGIN_ANSWERS) rather than a time: under heavy machine load one round of 20 logins can
 *   take longer than BENCH_DURATION_S, and a timed run would then count nothing.
 */
import autocannon from 'autocannon';
import { eq } from 'drizzle-orm';
import { users } from '../server/db/schema';
import { ARGON2_COST, hashPassword } from '../server/domain/accounts/passwords';
import { issueRefreshToken } from '../server/domain/accounts/refreshTokens';
import { systemClock } from '../server/lib/clock';
import { createMember, type TestMember } from '../test/support/members';
import { createBenchSite, openSiteDatabase, startServer, type BenchSite } from './server';
import type { BenchModule, BenchOptions, BenchRow } from './types';

/** In the accounts port range (4210-4219). */
const PORT = 4214;
const CONNECTIONS = 20;
const MEMBERS = 20;
const WARM_UP_SECONDS = 2;
const HASH_SAMPLES = 10;
/** Five rounds of the 20 connections (about 4 s at 70 ms a hash on two cores). */
const LOGIN_ANSWERS = 5 * CONNECTIONS;
/** Five failures per member, far below the account's cap of 100 an hour. */
const WRONG_PASSWORD_ATTEMPTS = 5 * MEMBERS;
const FAMILIES_PER_MEMBER = 2;
/** Under heavy load a login may wait long for the hashing threads; still count it. */
const TIMEOUT_SECONDS = 60;
const PASSWORD = 'a quiet morning by the sea';
const FLOOD_CONNECTIONS = 50;
const READ_CONNECTIONS = 2;

/** Milliseconds of one `hashPassword` with the production parameters: the median of a few. */
async function hashCostMs(): Promise<number> {
  const times: number[] = [];
  for (let sample = 0; sample < HASH_SAMPLES; sample += 1) {
    const startedAt = performance.now();
    await hashPassword(PASSWORD);
    times.push(performance.now() - startedAt);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/**
 * The site's member and more, all active with PASSWORD, and the refresh tokens of
 * FAMILIES_PER_MEMBER sign-ins each, written before the server starts.
 */
async function seedMembers(site: BenchSite): Promise<{ members: TestMember[]; tokens: string[] }> {
  const database = await openSiteDatabase(site);
  try {
    const passwordHash = await hashPassword(PASSWORD);
    const maker = {
      ctx: { database },
      clock: systemClock(),
      config: { authSecret: site.env.AUTH_SECRET! },
    };
    const members = [site.member];
    while (members.length < MEMBERS) members.push(await createMember(maker));
    const tokens: string[] = [];
    for (const member of members) {
      await database.db.update(users).set({ passwordHash }).where(eq(users.id, member.id));
      for (let family = 0; family < FAMILIES_PER_MEMBER; family += 1) {
        tokens.push(await issueRefreshToken(database.db, member.id, maker.clock));
      }
    }
    return { members, tokens };
  } finally {
    await database.close();
  }
}

interface Load {
  result: autocannon.Result;
  /** Answers other than the expected status, errors and timeouts. */
  failures: number;
}

interface LoginAttempt {
  username: string;
  password: string;
}

/**
 * `amount` login attempts, CONNECTIONS at once; other statuses than `expectedStatus` are
 * failures.
 */
async function loadLogins(
  url: string,
  amount: number,
  nextAttempt: () => LoginAttempt,
  expectedStatus: number,
): Promise<Load> {
  let unexpected = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    amount,
    timeout: TIMEOUT_SECONDS,
    requests: [
      {
        method: 'POST',
        path: '/v1/login',
        setupRequest: (request) => ({
          ...request,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ ...nextAttempt() }).toString(),
        }),
        onResponse: (status) => {
          if (status !== expectedStatus) unexpected += 1;
        },
      },
    ],
  });
  return { result, failures: unexpected + result.errors + result.timeouts };
}

/** Each request spends one pooled refresh token; its answer returns the successor. */
async function loadRefreshes(url: string, pool: string[], duration: number): Promise<Load> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    timeout: TIMEOUT_SECONDS,
    requests: [
      {
        method: 'POST',
        path: '/v1/refresh',
        setupRequest: (request) => {
          const token = pool.shift();
          if (!token) throw new Error('the refresh-token pool ran dry');
          return {
            ...request,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ refresh_token: token }),
          };
        },
        onResponse: (status, body) => {
          if (status === 200)
            pool.push((JSON.parse(body) as { refreshToken: string }).refreshToken);
        },
      },
    ],
  });
  return { result, failures: result.non2xx + result.errors + result.timeouts };
}

/** The unrelated read: a member's own detail, with their bearer token. */
function loadRead(url: string, member: TestMember, duration: number) {
  return autocannon({
    url: `${url}/v1/user/${member.id}`,
    connections: READ_CONNECTIONS,
    duration,
    timeout: TIMEOUT_SECONDS,
    headers: { authorization: `Bearer ${member.token}` },
  });
}

/** POST /v1/password_reset from one address; answers how many the limiter refused. */
async function floodPasswordResets(url: string, email: string, duration: number) {
  let refused = 0;
  const result = await autocannon({
    url,
    connections: FLOOD_CONNECTIONS,
    duration,
    timeout: TIMEOUT_SECONDS,
    requests: [
      {
        method: 'POST',
        path: '/v1/password_reset',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
        onResponse: (status) => {
          if (status === 429) refused += 1;
        },
      },
    ],
  });
  return { result, refused };
}

/**
 * The limiter's share of a flood and what the flood costs everyone else: an unrelated read's
 * p99 alone, then during the flood, on a server with the default mail limit.
 */
async function benchFlood(
  kind: string,
  site: BenchSite,
  options: BenchOptions,
): Promise<BenchRow[]> {
  const { RATE_LIMIT_MAIL_PER_HOUR: _off, ...defaults } = site.env;
  const server = await startServer(defaults, PORT);
  try {
    await loadRead(server.url, site.member, WARM_UP_SECONDS);
    const quiet = await loadRead(server.url, site.member, options.durationSeconds);
    const [flood, during] = await Promise.all([
      floodPasswordResets(server.url, site.member.email, options.durationSeconds),
      loadRead(server.url, site.member, options.durationSeconds),
    ]);
    const total = flood.result.requests.total;
    options.log(
      `flood (${kind}): ${total} password resets, ${flood.refused} refused; read p99 ${quiet.latency.p99} ms quiet, ${during.latency.p99} ms during`,
    );
    const readFailures = quiet.non2xx + quiet.errors + during.non2xx + during.errors;
    return [
      {
        name: `POST /v1/password_reset flood at ${FLOOD_CONNECTIONS} connections (${kind}): share refused by the rate limiter`,
        value: total > 0 ? (100 * flood.refused) / total : undefined,
        unit: '%',
        note: `${flood.refused} of ${total} answered 429 (mail limit 20 per hour per address)`,
      },
      {
        name: `GET /v1/user/{id} p99 during the flood vs quiet (${kind})`,
        value: quiet.latency.p99 > 0 ? during.latency.p99 / quiet.latency.p99 : undefined,
        unit: 'ratio',
        target: '≤ 2',
        met: quiet.latency.p99 > 0 ? during.latency.p99 <= 2 * quiet.latency.p99 : undefined,
        note: `p99 ${during.latency.p99} ms during, ${quiet.latency.p99} ms quiet${readFailures > 0 ? `; ${readFailures} failed reads` : ''}`,
      },
    ];
  } finally {
    await server.stop();
  }
}

/** Some request got the expected answer: there is something to measure. */
const answered = (load: Load) => load.result.requests.total > load.failures;
/** The figure, or undefined when the load got no expected answer. */
const measured = (load: Load, value: number) => (answered(load) ? value : undefined);

const failureNote = (load: Load) =>
  load.failures > 0 ? { note: `${load.failures} failed requests` } : {};

async function benchAccounts(
  kind: string,
  options: BenchOptions,
  hashMs: number,
): Promise<BenchRow[]> {
  const site = await createBenchSite(kind === 'postgres' ? options.databaseUrl : undefined);
  try {
    const { members, tokens: pool } = await seedMembers(site);
    const server = await startServer({ ...site.env, LOGIN_MAX_ATTEMPTS_PER_CLIENT: '0' }, PORT);
    let rows: BenchRow[];
    try {
      let turn = 0;
      const member = (): LoginAttempt => ({
        username: members[turn++ % members.length]!.email,
        password: PASSWORD,
      });
      await loadLogins(server.url, CONNECTIONS, member, 200);
      const login = await loadLogins(server.url, LOGIN_ANSWERS, member, 200);
      const { latency, requests } = login.result;
      options.log(
        `login (${kind}): ${requests.total} logins in ${login.result.duration} s, ${requests.average} req/s, p50 ${latency.p50} ms, p99 ${latency.p99} ms, ${login.failures} failures`,
      );
      // What someone guessing sees: a member's email with a wrong password (five each, all
      // 401), and addresses with no account, each tried once. No warm-up: it would lock.
      const guess = (): LoginAttempt => ({
        username: members[turn++ % members.length]!.email,
        password: 'not the password',
      });
      const wrong = await loadLogins(server.url, WRONG_PASSWORD_ATTEMPTS, guess, 401);
      const nobody = (): LoginAttempt => ({
        username: `nobody-${turn++}@example.jp`,
        password: 'not the password',
      });
      const unknown = await loadLogins(server.url, WRONG_PASSWORD_ATTEMPTS, nobody, 401);
      for (const [what, load] of [
        ['wrong password', wrong],
        ['unknown email', unknown],
      ] as const) {
        options.log(
          `login, ${what} (${kind}): ${load.result.requests.total} attempts, p50 ${load.result.latency.p50} ms, p99 ${load.result.latency.p99} ms, ${load.failures} not 401`,
        );
      }
      await loadRefreshes(server.url, pool, WARM_UP_SECONDS);
      const refresh = await loadRefreshes(server.url, pool, options.durationSeconds);
      options.log(
        `refresh (${kind}): ${refresh.result.requests.total} refreshes, ${Math.round(refresh.result.requests.average)} req/s, p99 ${refresh.result.latency.p99} ms, ${refresh.failures} failures`,
      );
      const beside = `one argon2id hash ${Math.round(hashMs)} ms`;
      rows = [
        {
          name: `POST /v1/login at ${CONNECTIONS} connections (${kind}) throughput`,
          value: measured(login, requests.average),
          unit: 'req/s',
          note: [beside, failureNote(login).note].filter(Boolean).join('; '),
        },
        {
          name: `POST /v1/login (${kind}) p50`,
          value: measured(login, latency.p50),
          unit: 'ms',
          note: beside,
        },
        {
          name: `POST /v1/login (${kind}) p99`,
          value: measured(login, latency.p99),
          unit: 'ms',
          note: beside,
        },
        {
          name: `POST /v1/login, unknown email p50 vs member's email with a wrong password p50 (${kind})`,
          value:
            answered(wrong) && answered(unknown)
              ? unknown.result.latency.p50 / wrong.result.latency.p50
              : undefined,
          unit: 'ratio',
          target: '≈ 1 (no timing tells which emails have accounts)',
          note: `unknown p50 ${unknown.result.latency.p50} ms, wrong password p50 ${wrong.result.latency.p50} ms${unknown.failures + wrong.failures > 0 ? `; ${unknown.failures + wrong.failures} not 401` : ''}`,
        },
        {
          name: `POST /v1/refresh at ${CONNECTIONS} connections (${kind}) throughput`,
          value: measured(refresh, refresh.result.requests.average),
          unit: 'req/s',
          ...failureNote(refresh),
        },
      ];
    } finally {
      await server.stop();
    }
    return [...rows, ...(await benchFlood(kind, site, options))];
  } finally {
    await site.remove();
  }
}

export const accountsBench: BenchModule = {
  title: 'accounts',
  async run(options) {
    const hashMs = await hashCostMs();
    const { memoryCost, timeCost, parallelism } = ARGON2_COST;
    options.log(`argon2id hash: ${hashMs.toFixed(1)} ms (median of ${HASH_SAMPLES})`);
    return [
      {
        name: `Password hash cost, argon2id m=${memoryCost / 1024} MiB t=${timeCost} p=${parallelism} (one hash, bench process)`,
        value: hashMs,
        unit: 'ms',
      },
      ...(await benchAccounts('pglite', options, hashMs)),
      ...(options.databaseUrl ? await benchAccounts('postgres', options, hashMs) : []),
    ];
  },
};
