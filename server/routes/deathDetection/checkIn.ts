import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { answerCheckIn } from '../../domain/deathDetection/checkIns';
import { deathDepsOf } from '../../domain/deathDetection/deathDeps';
import { checkInPage } from '../../domain/deathDetection/mails';
import { DomainError } from '../../domain/errors';

const tokenParams = z.object({ token: z.string().min(20).max(100) });

/**
 * The link of a check-in mail. GET only shows a button (mail scanners follow links and must
 * not answer for the member); the button's POST records the answer.
 */
export async function checkInRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps = deathDepsOf(ctx);
  const html = (reply: FastifyReply, page: string) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page);

  api.get('/v1/fpos/check_in/:token', { schema: { params: tokenParams } }, async (request, reply) =>
    html(reply, checkInPage('ask', request.params.token)),
  );

  api.post(
    '/v1/fpos/check_in/:token',
    { schema: { params: tokenParams } },
    async (request, reply) => {
      const wantsJson = request.headers.accept?.includes('application/json') ?? false;
      try {
        await answerCheckIn(deps, request.params.token);
      } catch (error) {
        if (wantsJson || !(error instanceof DomainError) || error.kind !== 'not_found') throw error;
        return html(reply.status(404), checkInPage('closed', request.params.token));
      }
      return wantsJson
        ? { answered: true }
        : html(reply, checkInPage('answered', request.params.token));
    },
  );
}
