/**
 * Soak run: a production server on PostgreSQL under a steady mixed load of members' real calls
 * (reads, saves, uploads, searches, letters) for M minutes. Prints one line per minute
 * (requests, errors, p50, p99, the server's resident memory) and a last line saying whether
 * p99 and memory stayed flat: the last minute within 1.5× of the second.
 *
 *   npm run soak [-- --minutes 5] [-- --members 4] [-- --database postgres://…]
 */
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { createBenchSite, openSiteDatabase, startServer } from '../bench/server';
import { createMember, type TestMember } from '../test/support/members';
import { connections } from '../server/db/schema';
import { systemClock } from '../server/lib/clock';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '5' },
    members: { type: 'string', default: '4' },
    database: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const MINUTES = Number(values.minutes);
/** Members calling at once, each pausing THINK_MS between calls as a person would, briefly. */
const MEMBERS = Number(values.members);
const THINK_MS = 100;
const PORT = 4254;
const FLAT = 1.5;
const METRICS_TOKEN = randomBytes(24).toString('hex');

const site = await createBenchSite(values.database);
const setup = await openSiteDatabase(site);
const factory = {
  ctx: { database: setup },
  clock: systemClock(),
  config: { authSecret: site.env.AUTH_SECRET! },
};
const reader = await createMember(factory, { nameReading: 'やまだはなこ山田花子' });
// Each calling member is a member of their own: one member calling for all would meet the
// per-member limits (300 upload URLs per 15 minutes) that no real member reaches.
const members = [site.member];
while (members.length < MEMBERS) members.push(await createMember(factory));
// Letters go to connections only.
await setup.db.insert(connections).values(
  members.flatMap((member) => [
    { userId: member.id, otherUserId: reader.id, relationship: 'friend' as const },
    { userId: reader.id, otherUserId: member.id, relationship: 'friend' as const },
  ]),
);
await setup.close();
const server = await startServer({ ...site.env, METRICS_TOKEN, RUN_JOBS: 'true' }, PORT);
const photo = await sharp({
  create: { width: 640, height: 480, channels: 3, background: '#8a7' },
})
  .jpeg()
  .toBuffer();

const call = async (member: TestMember, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${member.token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
};

/** One member's action; several calls for an upload, as the browser makes them. */
const ACTIONS: ((member: TestMember) => Promise<unknown>)[] = [
  (member) => call(member, 'GET', '/v1/dashboard'),
  (member) => call(member, 'GET', `/v1/memorial_page/${member.memorialPageId}`),
  (member) => call(member, 'GET', `/v1/album/memorial_page_id/${member.memorialPageId}/album`),
  (member) =>
    call(member, 'GET', `/v1/history/get_histories_by_memorial_page_id/${member.memorialPageId}`),
  (member) => call(member, 'GET', `/v1/user_search?q=${encodeURIComponent('やまだ')}`),
  (member) =>
    call(member, 'POST', `/v1/history/memorial_page_id/${member.memorialPageId}/history`, {
      occurred_on: '2001-04-01',
      body: '入学',
    }),
  (member) =>
    call(member, 'POST', '/v1/time_capsule_letter', {
      title: '二十歳のあなたへ',
      body: 'おめでとう。',
      recipients: [{ kind: 'member', user_id: reader.id }],
      admin_user_ids: [],
      delivery: { rule: 'date', send_at: '2030-01-01T09:00' },
    }),
  async (member) => {
    const signed = await call(member, 'GET', '/v1/signed_url?method=PUT&image_name=photo.jpg');
    const put = await fetch(String(signed.url), {
      method: 'PUT',
      headers: { 'content-type': 'image/jpeg', authorization: `Bearer ${member.token}` },
      body: photo,
    });
    if (!put.ok) throw new Error(`PUT upload: ${put.status} ${await put.text()}`);
    await call(member, 'POST', `/v1/album/memorial_page_id/${member.memorialPageId}/album`, {
      image_name: signed.imageName,
      caption: '散歩の日',
      taken_on: '2020-05-05',
    });
  },
];

interface Minute {
  latencies: number[];
  errors: number;
  rssBytes: number;
}
const minutes: Minute[] = [];
const current = () => minutes.at(-1)!;
const firstErrors: string[] = [];

async function residentMemory(): Promise<number> {
  const response = await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const line = (await response.text())
    .split('\n')
    .find((text) => text.startsWith('shinobu_process_resident_memory_bytes '));
  return Number(line?.split(' ')[1] ?? NaN);
}

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? NaN;
const endsAt = Date.now() + MINUTES * 60_000;
let running = true;

async function memberLoop(member: TestMember): Promise<void> {
  for (let turn = Math.floor(Math.random() * ACTIONS.length); running; turn += 1) {
    const startedAt = performance.now();
    try {
      await ACTIONS[turn % ACTIONS.length]!(member);
      current().latencies.push(performance.now() - startedAt);
    } catch (error) {
      current().errors += 1;
      if (firstErrors.length < 5) firstErrors.push((error as Error).message);
    }
    await new Promise((resolve) => setTimeout(resolve, THINK_MS));
  }
}

try {
  minutes.push({ latencies: [], errors: 0, rssBytes: 0 });
  const loops = members.map((member) => memberLoop(member));
  for (let minute = 1; minute <= MINUTES; minute += 1) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(60_000, endsAt - Date.now())));
    const done = current();
    if (minute < MINUTES) minutes.push({ latencies: [], errors: 0, rssBytes: 0 });
    else running = false;
    done.rssBytes = await residentMemory();
    const sorted = [...done.latencies].sort((a, b) => a - b);
    process.stdout.write(
      `minute ${minute}: ${done.latencies.length + done.errors} actions, ${done.errors} errors, p50 ${percentile(sorted, 0.5).toFixed(0)} ms, p99 ${percentile(sorted, 0.99).toFixed(0)} ms, memory ${(done.rssBytes / 2 ** 20).toFixed(0)} MB\n`,
    );
  }
  await Promise.all(loops);
} finally {
  running = false;
  await server.stop();
  await site.remove();
}

const p99 = (minute: Minute) =>
  percentile(
    [...minute.latencies].sort((a, b) => a - b),
    0.99,
  );
const second = minutes[Math.min(1, minutes.length - 1)]!;
const last = minutes.at(-1)!;
const flat = (early: number, late: number) => (late <= early * FLAT ? 'flat' : 'grew');
const requests = minutes.reduce((sum, m) => sum + m.latencies.length + m.errors, 0);
const errors = minutes.reduce((sum, m) => sum + m.errors, 0);
process.stdout.write(
  [
    `soak: ${MINUTES} minutes, ${requests} actions (an upload is three requests), ${errors} errors;`,
    `p99 second minute ${p99(second).toFixed(0)} ms, last ${p99(last).toFixed(0)} ms (${flat(p99(second), p99(last))});`,
    `memory second minute ${(second.rssBytes / 2 ** 20).toFixed(0)} MB, last ${(last.rssBytes / 2 ** 20).toFixed(0)} MB (${flat(second.rssBytes, last.rssBytes)})\n`,
  ].join(' '),
);
for (const message of firstErrors) process.stdout.write(`error: ${message}\n`);
