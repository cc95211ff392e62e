import { describe, expect, it } from 'vitest';
import { createKeyBatcher } from '../../server/db/keyBatcher';

/** A batcher over a table of squares that records the key lists it was asked for. */
function squares() {
  const queries: number[][] = [];
  const read = createKeyBatcher<number, number>(async (keys) => {
    queries.push(keys);
    return new Map(keys.filter((key) => key >= 0).map((key) => [key, key * key]));
  });
  return { read, queries };
}

describe('createKeyBatcher', () => {
  it('answers the reads of one turn with one query, each with its own row', async () => {
    const { read, queries } = squares();
    await expect(Promise.all([read(2), read(3), read(2), read(-1)])).resolves.toEqual([
      4,
      9,
      4,
      undefined,
    ]);
    expect(queries).toEqual([[2, 3, -1]]);
  });

  it('reads afresh in a later turn', async () => {
    const { read, queries } = squares();
    await read(4);
    await read(4);
    expect(queries).toEqual([[4], [4]]);
  });

  it('sends a full batch at once and starts another', async () => {
    const { read, queries } = squares();
    const keys = Array.from({ length: 450 }, (_, index) => index);
    const values = await Promise.all(keys.map((key) => read(key)));
    expect(values).toEqual(keys.map((key) => key * key));
    expect(queries.map((query) => query.length)).toEqual([200, 200, 50]);
  });

  it('passes a failed query on to every read of its batch', async () => {
    const read = createKeyBatcher<number, number>(async () => {
      throw new Error('database gone');
    });
    const reads = [read(1), read(2)];
    for (const pending of reads) await expect(pending).rejects.toThrow('database gone');
  });
});
