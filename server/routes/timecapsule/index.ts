import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { UUID_PATTERN } from '../../../contract/common';
import { timecapsuleEndpoints as letters } from '../../../contract/timecapsule';
import { timecapsuleDepsOf } from '../../areaDeps';
import type { AppContext } from '../../context';
import { claimGuestLetter } from '../../domain/timecapsule/claim';
import {
  createLetter,
  deleteLetter,
  letterListsVersion,
  listAdminLetters,
  listAdminLettersPage,
  listReceivedLetters,
  listReceivedLettersPage,
  listUnsentLetters,
  listUnsentLettersPage,
  updateLetter,
} from '../../domain/timecapsule/letters';
import { readLetter } from '../../domain/timecapsule/reading';
import { currentUserId } from '../../http/authenticate';
import { endpointRoute } from '../../http/endpoints';
import { notFound } from '../../http/errors';
import { versionedAnswer } from '../../http/versionedAnswer';
import { limitedAs } from '../../http/rateLimits';

/** A malformed id names no letter the caller may know of: 404, like any other unknown id. */
function letterIdOf(params: { letterId: string }): string {
  if (!UUID_PATTERN.test(params.letterId)) throw notFound('letter');
  return params.letterId;
}

/**
 * Time-capsule letters: three lists (waiting, managed, received), plus compose, read, edit,
 * delete and claim.
 */
export async function timeCapsuleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const deps = timecapsuleDepsOf(ctx);

  const lists = [
    [letters.listAdminLetters, listAdminLetters, 'admin'],
    [letters.listReceivedLetters, listReceivedLetters, 'received'],
    [letters.listUnsentLetters, listUnsentLetters, 'unsent'],
  ] as const;
  // A browser that holds a list asks again with its ETag: unchanged, it gets a 304 and the
  // list's queries are not run.
  for (const [list, read, name] of lists) {
    routes.route({
      ...endpointRoute(list),
      handler: async (request, reply) => {
        const userId = currentUserId(request);
        const version = `letters.${name}.${userId}.${await letterListsVersion(deps, userId)}`;
        return versionedAnswer(request, reply, version, async () => {
          const answer: Awaited<ReturnType<typeof read>> = await read(deps, userId);
          return answer;
        });
      },
    });
  }

  // The same lists a page at a time; the ETag adds the page size and the cursor.
  const pagedLists = [
    [letters.listAdminLettersPaged, listAdminLettersPage, 'admin'],
    [letters.listReceivedLettersPaged, listReceivedLettersPage, 'received'],
    [letters.listUnsentLettersPaged, listUnsentLettersPage, 'unsent'],
  ] as const;
  for (const [list, read, name] of pagedLists) {
    routes.route({
      ...endpointRoute(list),
      handler: async (request, reply) => {
        const userId = currentUserId(request);
        const { limit, cursor } = request.query;
        const version = `letters.${name}.${userId}.${await letterListsVersion(deps, userId)}.${limit}.${encodeURIComponent(cursor ?? '')}`;
        return versionedAnswer(request, reply, version, async () => {
          const answer: Awaited<ReturnType<typeof read>> = await read(deps, userId, {
            limit,
            cursor,
          });
          return answer;
        });
      },
    });
  }

  // A letter mails its recipients (members or not) when it is delivered.
  const create = endpointRoute(letters.createLetter);
  routes.route({
    ...create,
    config: { ...create.config, ...limitedAs('mail') },
    handler: async (request, reply) => {
      const id = await createLetter(deps, currentUserId(request), request.body);
      return reply.status(201).send({ timeCapsuleLetterId: id });
    },
  });

  routes.route({
    ...endpointRoute(letters.claimLetter),
    handler: async (request) => ({
      timeCapsuleLetterId: await claimGuestLetter(deps, currentUserId(request), request.body.token),
    }),
  });

  routes.route({
    ...endpointRoute(letters.readLetter),
    handler: (request) => readLetter(deps, currentUserId(request), letterIdOf(request.params)),
  });

  routes.route({
    ...endpointRoute(letters.updateLetter),
    handler: async (request) => {
      const id = letterIdOf(request.params);
      await updateLetter(deps, currentUserId(request), id, request.body);
      return { timeCapsuleLetterId: id };
    },
  });

  routes.route({
    ...endpointRoute(letters.deleteLetter),
    handler: async (request, reply) => {
      await deleteLetter(deps, currentUserId(request), letterIdOf(request.params));
      return reply.status(204).send();
    },
  });
}
