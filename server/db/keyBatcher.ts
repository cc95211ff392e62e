/** Reads by key that arrive in one turn of the event loop, answered by one query. */
export type KeyBatcher<K, V> = (key: K) => Promise<V | undefined>;

interface Waiter<V> {
  resolve: (value: V | undefined) => void;
  reject: (error: unknown) => void;
}

/** Bounds one query's key list; a fuller batch is sent at once and a new one begins. */
const MAX_KEYS_PER_QUERY = 200;

/**
 * Coalesces the reads of one turn of the event loop: under load, dozens of requests for rows
 * by key arrive together, and one `WHERE key = ANY(...)` query answers all of them for about
 * the cost of one (one statement, one write to the database socket, one round trip). The rows
 * are read afresh for every batch: nothing is kept between turns, so no answer can be stale.
 * On a quiet server a batch holds one key and waits only until the end of the current turn.
 */
export function createKeyBatcher<K, V>(
  loadMany: (keys: K[]) => Promise<ReadonlyMap<K, V>>,
): KeyBatcher<K, V> {
  let pending: Map<K, Waiter<V>[]> | undefined;

  const send = async (batch: Map<K, Waiter<V>[]>) => {
    try {
      const found = await loadMany([...batch.keys()]);
      for (const [key, waiters] of batch)
        for (const waiter of waiters) waiter.resolve(found.get(key));
    } catch (error) {
      for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
    }
  };

  /** Sends the open batch (once: a batch sent when full is no longer the open one). */
  const sendOpen = (batch: Map<K, Waiter<V>[]>) => {
    if (pending !== batch) return;
    pending = undefined;
    void send(batch);
  };

  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      let batch = pending;
      if (!batch) {
        const opened = new Map<K, Waiter<V>[]>();
        pending = batch = opened;
        // setImmediate runs after the poll phase, so every request read in this turn has
        // asked for its key by then.
        setImmediate(() => sendOpen(opened));
      }
      const waiters = batch.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else batch.set(key, [{ resolve, reject }]);
      if (batch.size >= MAX_KEYS_PER_QUERY) sendOpen(batch);
    });
}
