import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';
import { HTML_PAGES, INTEGRATION, MATRIX_ENV } from './authorizationWorld';
import { requestsFor, useKnownIds, type FuzzRequest } from './fuzzRequests';
import { jpegPhoto, upload } from './memorialSupport';

/** Fixed so that a failure replays; `FUZZ_SEED=<n>` varies it, `FUZZ_REQUESTS` the count. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const TOTAL_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
/** Requests in flight at once: the app's own concurrency, not the test's loop, is exercised. */
const IN_FLIGHT = 8;

/** Calls that would end the fuzzing member's account or sessions: sent signed out instead. */
const SPENDS_THE_MEMBER = new Set(['DELETE /v1/user']);

const COVERED = /^\/(v1|api\/auth|files)(\/|$)/;

let t: TestApp;
let member: TestMember;
let patchTargets: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp(MATRIX_ENV);
  member = await createMember(t);
  useKnownIds([member.id, member.memorialPageId]);
  // Made before the fuzzing, which may spend the member's signed-URL calls an upload needs.
  patchTargets = await createPatchTargets();
});
afterAll(async () => t.close());

function headersOf(request: FuzzRequest, spendsTheMember: boolean): Record<string, string> {
  const basic = Buffer.from(`${INTEGRATION.id}:${INTEGRATION.secret}`).toString('base64');
  const authorization = {
    member: spendsTheMember ? undefined : `Bearer ${member.token}`,
    anonymous: undefined,
    integration: `Basic ${basic}`,
    bad_bearer: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
  }[request.caller];
  return { ...request.headers, ...(authorization ? { authorization } : {}) };
}

describe('fuzzing every route from its schema and hostile input', () => {
  it('answers every PATCH route with an empty body or only unknown fields with a 422 and a detail', async () => {
    const patchRoutes = t.routes.filter((route) => route.method === 'PATCH');
    expect(patchRoutes.length).toBeGreaterThan(0);
    // A real thing for each path parameter, so that the call reaches the rules behind it;
    // before the fuzzing, whose calls may end the member's sessions (a 401 would come first).
    const problems: string[] = [];
    for (const route of patchRoutes) {
      const url = route.url.replace(/:([A-Za-z_]+)/g, (_match, name: string) => {
        const target = patchTargets[name];
        if (!target) throw new Error(`${route.url}: no real target for :${name}`);
        return target;
      });
      for (const body of [{}, { unknown_field: 'x', 'also-unknown': 1 }]) {
        const answer = await t.request({ method: 'PATCH', url, token: member.token, body });
        // A 422 of the body's own check: the call reached the route's rules with a real
        // target (not a 401, 403 or 404 that would leave the body untried).
        const status = answer.statusCode;
        if (status !== 422 || typeof detailOf(answer.body) !== 'string') {
          problems.push(`PATCH ${url} ${JSON.stringify(body)}: ${status} ${answer.body}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it(`answers ${TOTAL_REQUESTS} generated requests with no 5xx and every 4xx as JSON with a detail`, async () => {
    const routes = t.routes.filter((route) => COVERED.test(route.url));
    const perRoute = Math.ceil(TOTAL_REQUESTS / routes.length);
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    for (const [index, route] of routes.entries()) {
      const key = `${route.method} ${route.url}`;
      const requests = fc.sample(requestsFor(route), { seed: SEED + index, numRuns: perRoute });
      for (let start = 0; start < requests.length; start += IN_FLIGHT) {
        const batch = requests.slice(start, start + IN_FLIGHT);
        const answers = await Promise.all(
          batch.map((request) =>
            t.app.inject({
              method: request.method as 'GET',
              url: request.url,
              headers: headersOf(request, SPENDS_THE_MEMBER.has(key)),
              ...(request.payload === undefined ? {} : { payload: request.payload }),
            }),
          ),
        );
        sent += batch.length;
        answers.forEach((answer, i) => {
          statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
          const what = `${key} ${batch[i]!.url.slice(0, 200)} (seed ${SEED + index})`;
          if (answer.statusCode >= 500) {
            problems.push(`${answer.statusCode} ${what}: ${answer.body.slice(0, 200)}`);
          } else if (answer.statusCode >= 400 && !HTML_PAGES.has(key)) {
            const type = String(answer.headers['content-type'] ?? '');
            if (!type.startsWith('application/json') || typeof detailOf(answer.body) !== 'string') {
              problems.push(
                `${answer.statusCode} without detail ${what}: ${answer.body.slice(0, 200)}`,
              );
            }
          }
        });
      }
    }
    expect(sent).toBeGreaterThanOrEqual(TOTAL_REQUESTS);
    console.info('fuzz answers by status', Object.fromEntries([...statuses].sort()));
    // Generated from the schemas, a good share gets past validation to the rules behind it.
    const accepted = [...statuses].filter(([s]) => s < 300).reduce((n, [, c]) => n + c, 0);
    expect(accepted).toBeGreaterThan(TOTAL_REQUESTS / 20);
    expect(problems.slice(0, 20)).toEqual([]);
  }, 300_000);
});

/** The `detail` of a JSON answer, undefined for any other body. */
function detailOf(body: string): unknown {
  try {
    return (JSON.parse(body) as { detail?: unknown }).detail;
  } catch {
    return undefined;
  }
}

/** The fuzzing member's page with a photo, a history entry, a condolence and a connection. */
async function createPatchTargets(): Promise<Record<string, string>> {
  const id = member.memorialPageId;
  const asMember = { token: member.token };
  const imageName = await upload(t, await jpegPhoto(64, 48), asMember);
  const photo = await t.request({
    method: 'POST',
    url: `/v1/album/memorial_page_id/${id}/album`,
    ...asMember,
    body: { image_name: imageName, caption: '' },
  });
  const entry = await t.request({
    method: 'POST',
    url: `/v1/history/memorial_page_id/${id}/history`,
    ...asMember,
    body: { occurred_on: '2001-04-01', body: '入学' },
  });
  const condolence = await t.request({
    method: 'POST',
    url: `/v1/memorial_page/${id}/condolences`,
    ...asMember,
    body: { body: 'お悔やみ申し上げます' },
  });
  const connection = await createMember(t);
  await connectMembers(t, member, connection);
  for (const made of [photo, entry, condolence]) expect(made.statusCode, made.body).toBe(201);
  return {
    id,
    photoId: photo.json<{ id: string }>().id,
    entryId: entry.json<{ id: string }>().id,
    condolenceId: condolence.json<{ id: string }>().id,
    user_id: connection.id,
  };
}
