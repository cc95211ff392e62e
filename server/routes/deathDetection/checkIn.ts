import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deathDetectionEndpoints as death } from '../../../contract/deathDetection';
import type { AppContext } from '../../context';
import { answerCheckIn } from '../../domain/deathDetection/checkIns';
import { deathDepsOf } from '../../areaDeps';
import { checkInPage } from '../../domain/deathDetection/mails';
import { DomainError } from '../../domain/errors';
import { endpointRoute } from '../../http/endpoints';

/**
 * The link of a check-in mail. GET only shows a button (mail scanners follow links and must
 * not answer for the member); the button's POST records the answer.
 */
export async function checkInRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps = deathDepsOf(ctx);
  const html = (reply: FastifyReply, page: string) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page);

  api.route({
    ...endpointRoute(death.checkInPage),
    handler: async (request, reply) => html(reply, checkInPage('ask', request.params.token)),
  });

  api.route({
    ...endpointRoute(death.answerCheckIn),
    handler: async (request, reply) => {
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
  });
}
