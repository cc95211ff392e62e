import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compiledAnswerSerializer, type ContractDrift } from '../../server/http/endpoints';

const serializerOf = (schema: z.ZodType, drifts?: ContractDrift[]) =>
  compiledAnswerSerializer(drifts)({
    schema,
    method: 'GET',
    url: '/v1/example',
    httpStatus: '200',
  });

describe('answers leave through a serializer compiled from their contract schema', () => {
  const schema = z.object({
    id: z.string(),
    createdAt: z.string(),
    items: z.array(z.object({ at: z.string().nullable(), link: z.string() })),
  });

  it('carries dates as ISO strings and applies toJSON, nested in lists', () => {
    const answer = {
      id: 'a',
      createdAt: new Date('2026-11-27T01:02:03.000Z'),
      items: [
        { at: new Date('2026-01-01T00:00:00.000Z'), link: new URL('https://example.jp/x') },
        { at: null, link: 'https://example.jp/y' },
      ],
    };
    expect(JSON.parse(serializerOf(schema)(answer) as string)).toEqual({
      id: 'a',
      createdAt: '2026-11-27T01:02:03.000Z',
      items: [
        { at: '2026-01-01T00:00:00.000Z', link: 'https://example.jp/x' },
        { at: null, link: 'https://example.jp/y' },
      ],
    });
  });

  it('leaves the answer it was given as it was, dates and all', () => {
    const at = new Date('2026-01-01T00:00:00.000Z');
    const items = [{ at, link: 'https://example.jp/x' }];
    const answer = { id: 'a', createdAt: '2026-11-27', items };
    serializerOf(schema, [])(answer);
    expect(answer).toEqual({
      id: 'a',
      createdAt: '2026-11-27',
      items: [{ at, link: 'https://example.jp/x' }],
    });
    expect(answer.items).toBe(items);
    expect(items[0]!.at).toBe(at);
  });

  it('drops what the schema does not name, in a union branch too', () => {
    const answer = { id: 'a', createdAt: '2026-11-27', items: [], passwordHash: 'secret' };
    expect(serializerOf(schema)(answer)).toBe('{"id":"a","createdAt":"2026-11-27","items":[]}');
    const either = z.union([
      z.object({ kind: z.literal('pet'), name: z.string() }),
      z.object({ kind: z.literal('person'), lastName: z.string() }),
    ]);
    const row = { kind: 'person', lastName: '鈴木', passwordHash: 'secret' };
    expect(serializerOf(either)(row)).toBe('{"kind":"person","lastName":"鈴木"}');
  });

  it('refuses an answer without a field the contract requires', () => {
    expect(() => serializerOf(schema)({ id: 'a', items: [] })).toThrow();
  });

  it('in the API suite, records an answer the schema refuses or the serializer bends', () => {
    const drifts: ContractDrift[] = [];
    serializerOf(schema, drifts)({ id: 1, createdAt: 'x', items: [] });
    expect(drifts).toHaveLength(1);
    expect(drifts[0]).toMatchObject({ route: 'GET /v1/example', status: 200 });
    serializerOf(schema, drifts)({ id: 'a', createdAt: 'x', items: [] });
    expect(drifts).toHaveLength(1);
  });
});
