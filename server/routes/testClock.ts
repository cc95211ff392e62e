import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { testToolEndpoints } from '../../contract/testTools';
import type { Clock } from '../lib/clock';
import { endpointRoute } from '../http/endpoints';

/**
 * `POST /v1/test/clock` moves the server clock forward, so an e2e test can watch timed work
 * (a letter due in a minute, a grace period of days) happen without waiting. Registered only
 * when `TEST_CLOCK_CONTROL=true`, which production refuses; the clock never moves back.
 */
export async function testClockRoutes(
  app: FastifyInstance,
  clock: Clock & { advance(ms: number): void },
): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...endpointRoute(testToolEndpoints.advanceClock),
    handler: async (request) => {
      clock.advance(request.body.advance_ms);
      return { now: clock.now().toISOString() };
    },
  });
}
