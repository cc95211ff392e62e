import type { TestMember } from './members';

/** One answer to a write. */
export interface WriteAnswer {
  /** The HTTP status; 0 when the server did not answer at all (refused, reset). */
  status: number;
  retryAfter: string | null;
  code: string | undefined;
  /** When the answer arrived (performance.now()). */
  at: number;
  /** From the request's start to its answer. */
  tookMs: number;
}

export interface HistoryWriters {
  answers: WriteAnswer[];
  /** The bodies of the entries the server acknowledged (2xx). */
  acknowledged: string[];
  /** Resolves once `count` more writes have succeeded than now; throws when `alive` says no. */
  succeeded(count: number): Promise<void>;
  stop(): Promise<void>;
}

/** Between two writes of one client: clients retry at once rather than after Retry-After. */
const PAUSE_MS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Each member adds history entries to their own memorial page, one after another, until
 * stopped, each entry with a text of its own so that it can be looked for afterwards.
 */
export function startHistoryWriters(
  baseUrl: string,
  members: TestMember[],
  alive: () => boolean,
): HistoryWriters {
  const answers: WriteAnswer[] = [];
  const acknowledged: string[] = [];
  let running = true;
  const write = async (member: TestMember, n: number) => {
    const body = `entry ${member.id} ${n}`;
    const startedAt = performance.now();
    try {
      const response = await fetch(
        `${baseUrl}/v1/history/memorial_page_id/${member.memorialPageId}/history`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${member.token}` },
          body: JSON.stringify({ occurred_on: '2012-04-01', body }),
        },
      );
      const json = (await response.json().catch(() => ({}))) as { code?: string };
      if (response.ok) acknowledged.push(body);
      answers.push({
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        code: json.code,
        at: performance.now(),
        tookMs: performance.now() - startedAt,
      });
    } catch {
      const at = performance.now();
      answers.push({ status: 0, retryAfter: null, code: undefined, at, tookMs: at - startedAt });
    }
  };
  const loops = members.map(async (member) => {
    for (let n = 0; running; n++) {
      await write(member, n);
      await sleep(PAUSE_MS);
    }
  });
  return {
    answers,
    acknowledged,
    async succeeded(count) {
      const goal = acknowledged.length + count;
      while (acknowledged.length < goal) {
        if (!alive()) throw new Error('the server is gone');
        await sleep(20);
      }
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}
