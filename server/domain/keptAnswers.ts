/** A kept answer: the JSON text, UTF-8 encoded once rather than on every send. */
export interface KeptBody {
  body: Buffer;
}

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
    this.#bytes += answer.body.length;
    while (this.#bytes > this.limitBytes) this.#forget(this.#answers.keys().next().value!);
  }

  #forget(key: string): void {
    const answer = this.#answers.get(key);
    if (!answer) return;
    this.#answers.delete(key);
    this.#bytes -= answer.body.length;
  }
}

/** One store of kept answers per owner: each application has its own database and file store. */
export function keptAnswersPer<Owner extends object, Answer extends KeptBody>(
  limitBytes: number,
): (owner: Owner) => KeptAnswers<Answer> {
  const stores = new WeakMap<Owner, KeptAnswers<Answer>>();
  return (owner) => {
    let store = stores.get(owner);
    if (!store) {
      store = new KeptAnswers<Answer>(limitBytes);
      stores.set(owner, store);
    }
    return store;
  };
}
