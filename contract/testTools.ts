import { z } from 'zod';
import { timestamp } from './common';
import { endpoint, named } from './endpoint';

/** Served only with TEST_CLOCK_CONTROL=true, which production refuses (docs/operations.md). */
export const testToolEndpoints = named({
  advanceClock: endpoint({
    method: 'POST',
    path: '/v1/test/clock',
    summary: 'Moves the server clock forward, for end-to-end tests of timed work',
    tag: 'Test tools',
    caller: 'public',
    body: z
      .object({
        advance_ms: z
          .number({ error: 'advance_ms_invalid' })
          .int()
          .positive()
          .max(100 * 365 * 86_400_000),
      })
      .meta({ examples: [{ advance_ms: 604_800_000 }] }),
    responses: { 200: z.object({ now: timestamp }) },
  }),
});
