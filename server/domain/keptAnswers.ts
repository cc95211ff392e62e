import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { onePerOwner } from '../onePerOwner';

const gzipAsync = promisify(gzip);

/**
 * A kept answer: the JSON text, UTF-8 encoded once rather than on every send, and, where it
 * was made with `keptJson`, its gzip copy, compressed once too (see `sendKeptJson`).
 */
export interface KeptBody {
  body: Buffer;
  gzipped?: Buffer;
}

/**
 * An answer's JSON and its gzip copy. The list answers are mostly text that repeats (keys,
 * URL prefixes, dates): 4 to 6 times fewer bytes, which on a kept read are most of the cost
 * for the server, the network and the client. Compressed on libuv's thread pool, once per
 * made answer, so a read that hands out a kept answer compresses nothing.
 */
export async function keptJson(value: unknown): Promise<KeptBody> {
  const body = Buffer.from(JSON.stringify(value));
  return { body, gzipped: await gzipAsync(body) };
}

const bytesOf = (answer: KeptBody) => answer.body.length + (answer.gzipped?.length ?? 0);

/**
 * Kept list answers of one instance, bounded in bytes: past the limit, the answer used least
 * recently leaves first. What makes an answer current is each list's own rule (a version the
 * database bumps, a fingerprint of its rows); this only holds them.
 */
export class KeptAnswers<Answer extends KeptBody> {
  readonly #answers = new Map<string, Answer>();
  #bytes = 0;

  constructor(private readonly limitBytes: number) {}

  /** The answer kept under `key`, which moves to the back of the line of answers to let go. */
  use(key: string): Answer | undefined {
    const answer = this.#answers.get(key);
    if (answer) {
      this.#answers.delete(key);
      this.#answers.set(key, answer);
    }
    return answer;
  }

  keep(key: string, answer: Answer): void {
    this.#forget(key);
    this.#answers.set(key, answer);
    this.#bytes += bytesOf(answer);
    while (this.#bytes > this.limitBytes) this.#forget(this.#answers.keys().next().value!);
  }

  #forget(key: string): void {
    const answer = this.#answers.get(key);
    if (!answer) return;
    this.#answers.delete(key);
    this.#bytes -= bytesOf(answer);
  }
}

/** One store of kept answers per owner: each application has its own database and file store. */
export function keptAnswersPer<Owner extends object, Answer extends KeptBody>(
  limitBytes: number,
): (owner: Owner) => KeptAnswers<Answer> {
  return onePerOwner(() => new KeptAnswers<Answer>(limitBytes));
}
