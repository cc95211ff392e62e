import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Clock } from '../domain/clock';

const advanceBody = z.object({
  advance_ms: z
    .number({ error: 'advance_ms_invalid' })
    .int()
    .positive()
    .max(100 * 365 * 86_400_000),
});

/**
 * `POST /v1/test/clock` moves the server clock forward, so an e2e test can watch timed work
 * (a letter due in a minute, a grace period of days) happen without waiting. Registered only
 * when `TEST_CLOCK_CONTROL=true`, which production refuses; the clock never moves back.
 */
export async function testClockRoutes(
  app: FastifyInstance,
  clock: Clock & { advance(ms: number): void },
): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post('/v1/test/clock', { schema: { body: advanceBody } }, async (request) => {
      clock.advance(request.body.advance_ms);
      return { now: clock.now().toISOString() };
    });
}
