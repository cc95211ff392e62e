import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { claimGuestLetter } from '../../domain/timecapsule/claim';
import {
  createLetter,
  deleteLetter,
  listAdminLetters,
  listReceivedLetters,
  listUnsentLetters,
  updateLetter,
} from '../../domain/timecapsule/letters';
import { readLetter } from '../../domain/timecapsule/reading';
import { currentUserId, requireUser } from '../../http/authenticate';
import { notFound } from '../../http/errors';
import { letterClaimSchema, letterInputSchema } from '../../../src/contract/rules/timecapsule';
import { limitedAs } from '../../http/rateLimits';

const BASE = '/v1/time_capsule_letter';

/** A malformed id names no letter the caller may know of: 404, like any other unknown id. */
const letterParams = z.object({ letterId: z.string() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function letterIdOf(params: { letterId: string }): string {
  if (!UUID.test(params.letterId)) throw notFound('letter');
  return params.letterId;
}

/** Time-capsule letters: the spec's three lists, plus compose, read, edit, delete and claim. */
export async function timeCapsuleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // onRequest, before body validation: a caller without a token learns nothing (401, not 422).
  const member = { onRequest: requireUser(ctx) };
  const db = ctx.database.db;

  const lists = [
    ['get_admin_letters', listAdminLetters],
    ['get_received_letters', listReceivedLetters],
    ['get_unsent_letters', listUnsentLetters],
  ] as const;
  for (const [call, list] of lists) {
    api.get(`${BASE}/${call}`, member, async (request) => list(db, currentUserId(request)));
  }

  // A letter mails its recipients (members or not) when it is delivered.
  const mailing = { ...member, config: limitedAs('mail') };
  api.post(BASE, { ...mailing, schema: { body: letterInputSchema } }, async (request, reply) => {
    const id = await createLetter(db, ctx.clock, currentUserId(request), request.body);
    return reply.status(201).send({ timeCapsuleLetterId: id });
  });
  api.post(
    `${BASE}/claim`,
    { ...member, schema: { body: letterClaimSchema } },
    async (request) => ({
      timeCapsuleLetterId: await claimGuestLetter(db, currentUserId(request), request.body.token),
    }),
  );
  api.get(`${BASE}/:letterId`, { ...member, schema: { params: letterParams } }, async (request) =>
    readLetter(db, ctx.clock, ctx.store, currentUserId(request), letterIdOf(request.params)),
  );
  api.put(
    `${BASE}/:letterId`,
    { ...member, schema: { params: letterParams, body: letterInputSchema } },
    async (request) => {
      const id = letterIdOf(request.params);
      await updateLetter(db, ctx.clock, ctx.store, currentUserId(request), id, request.body);
      return { timeCapsuleLetterId: id };
    },
  );
  api.delete(
    `${BASE}/:letterId`,
    { ...member, schema: { params: letterParams } },
    async (request, reply) => {
      await deleteLetter(db, ctx.store, currentUserId(request), letterIdOf(request.params));
      return reply.status(204).send();
    },
  );
}
