// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { faultAnswer } from '../../server/http/faults';

/** An error as drizzle throws it: its own, with the driver's as the cause. */
const wrapped = (cause: object) =>
  Object.assign(new Error('Failed query: insert …'), {
    cause: Object.assign(new Error(''), cause),
  });

describe('a lost or mute database connection', () => {
  it.each([
    [
      'a terminated backend',
      { code: '57P01', message: 'terminating connection due to administrator command' },
    ],
    ['a connection failure of class 08', { code: '08P01', message: 'protocol violation' }],
    [
      'a statement over statement_timeout',
      { code: '57014', message: 'canceling statement due to statement timeout' },
    ],
    ['the client giving up on an answer', { message: 'Query read timeout' }],
    [
      'a connection closed after that',
      { message: 'Client has encountered a connection error and is not queryable' },
    ],
    ['a reset', { code: 'ECONNRESET', message: 'read ECONNRESET' }],
  ])('answers 503 with Retry-After for %s', (_case, cause) => {
    expect(faultAnswer(wrapped(cause))).toMatchObject({
      status: 503,
      code: 'database_unavailable',
      headers: { 'retry-after': '5' },
    });
  });

  it('leaves any other database error to the caller', () => {
    expect(faultAnswer(wrapped({ code: '23505', message: 'duplicate key' }))).toBeUndefined();
  });
});
