import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  administratorReportSchema,
  cancelSuspicionSchema,
  deathConfirmationSchema,
  deathSettingsSchema,
  integrationLinkSchema,
  integrationReportSchema,
  signRequestSchema,
} from '../../../src/contract/rules/deathDetection';
import type { AppContext } from '../../context';
import { auditLogOf } from '../../domain/deathDetection/audit';
import {
  confirmDeath,
  createSignRequest,
  deathCaseView,
} from '../../domain/deathDetection/confirmation';
import { deathDepsOf } from '../../domain/deathDetection/deathDeps';
import {
  authenticateClient,
  integrationLinksOf,
  linkIntegration,
  reportByAdministrator,
  reportByIntegration,
  unlinkIntegration,
} from '../../domain/deathDetection/reports';
import { claimUpload } from '../../domain/uploads/uploads';
import {
  acceptAdministration,
  administeredUsers,
  getDeathSettings,
  isAdministratorOf,
  putDeathSettings,
} from '../../domain/deathDetection/settings';
import {
  administeredUserWithSuspectedDeath,
  cancelSuspicion,
  deathSuspectedUser,
} from '../../domain/deathDetection/suspicion';
import { currentUserId, requireUser } from '../../http/authenticate';
import { notFound } from '../../http/errors';
import { limitedAs } from '../../http/rateLimits';
import { currentPasswordField, noticeOfChange, proveFreshly } from '../accounts/freshProof';

const sameMembers = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

const memberParams = z.object({ user_id: z.uuid({ error: 'user_id_invalid' }) });
const clientParams = z.object({ client_id: z.string().min(1).max(100) });

/** The `/v1/fpos/*` calls: administrators, suspicion, confirmation, integrations. */
export async function fposRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps = deathDepsOf(ctx);
  const preHandler = requireUser(ctx);

  api.get('/v1/fpos/death_settings', { preHandler }, async (request) =>
    getDeathSettings(deps, currentUserId(request)),
  );

  // Naming administrators or changing their rule needs a fresh proof and is told by mail;
  // the check-in period alone does not.
  api.put(
    '/v1/fpos/death_settings',
    { preHandler, schema: { body: deathSettingsSchema.extend(currentPasswordField) } },
    async (request) => {
      const userId = currentUserId(request);
      const before = await getDeathSettings(deps, userId);
      const wanted = request.body;
      const sensitive =
        before.rule !== wanted.rule ||
        !sameMembers(
          before.administrators.map((administrator) => administrator.userId),
          wanted.administrator_user_ids,
        );
      const proven = sensitive ? await proveFreshly(ctx, request) : undefined;
      const after = await putDeathSettings(deps, userId, wanted);
      if (proven) await noticeOfChange(ctx, proven, 'death_settings');
      return after;
    },
  );

  api.get('/v1/fpos/administered_users', { preHandler }, async (request) => ({
    items: await administeredUsers(deps, currentUserId(request)),
  }));

  api.get('/v1/fpos/death_suspected_user', { preHandler }, async (request) => {
    const found = await deathSuspectedUser(deps, currentUserId(request));
    return (
      found ?? { userId: null, memorialPageId: null, lastName: null, firstName: null, state: null }
    );
  });

  api.get('/v1/fpos/administered_user_with_suspected_death', { preHandler }, async (request) => ({
    userId: await administeredUserWithSuspectedDeath(deps, currentUserId(request)),
  }));

  // Only the member themself clears their suspicion; anyone else's id is unknown to them.
  api.post(
    '/v1/fpos/cancel_death_suspected_at',
    { preHandler, schema: { body: cancelSuspicionSchema } },
    async (request) => {
      const userId = currentUserId(request);
      if (request.body.death_suspected_user_id !== userId) throw notFound('user');
      await cancelSuspicion(deps, userId, 'cancel');
      return { state: 'alive' as const };
    },
  );

  // Accepting being named shows the member that the administrator knows and agrees.
  api.post(
    '/v1/fpos/administered_users/:user_id/accept',
    { preHandler, schema: { params: memberParams } },
    async (request) => acceptAdministration(deps, currentUserId(request), request.params.user_id),
  );

  api.post(
    '/v1/fpos/report_death_suspected',
    { preHandler, config: limitedAs('deathReport'), schema: { body: administratorReportSchema } },
    async (request, reply) => {
      const callerId = currentUserId(request);
      const document = request.body.document_image_name;
      // The upload is checked only for an administrator: others learn nothing from a 422.
      if (document !== undefined) {
        if (!(await isAdministratorOf(deps.db, callerId, request.body.user_id))) {
          throw notFound('user');
        }
        await claimUpload(deps.db, {
          objectName: document,
          ownerUserId: callerId,
          use: { kind: 'death_document', id: request.body.user_id },
          field: 'document_image_name',
        });
      }
      return reply.status(201).send(await reportByAdministrator(deps, callerId, request.body));
    },
  );

  api.get(
    '/v1/fpos/death_case/:user_id',
    { preHandler, schema: { params: memberParams } },
    async (request) => deathCaseView(deps, currentUserId(request), request.params.user_id),
  );

  api.get(
    '/v1/fpos/death_audit_log/:user_id',
    { preHandler, schema: { params: memberParams } },
    async (request) => {
      const callerId = currentUserId(request);
      const userId = request.params.user_id;
      if (callerId !== userId && !(await isAdministratorOf(deps.db, callerId, userId))) {
        throw notFound('user');
      }
      return { items: await auditLogOf(deps.db, userId) };
    },
  );

  api.post(
    '/v1/fpos/death_confirmation/sign_request',
    { preHandler, schema: { body: signRequestSchema } },
    async (request, reply) =>
      reply.status(201).send(await createSignRequest(deps, currentUserId(request), request.body)),
  );

  api.post(
    '/v1/fpos/death_confirmation',
    { preHandler, config: limitedAs('deathReport'), schema: { body: deathConfirmationSchema } },
    async (request, reply) =>
      reply.status(201).send(await confirmDeath(deps, currentUserId(request), request.body)),
  );

  api.post(
    '/v1/fpos/verify_my_auth_access_token',
    { schema: { body: integrationLinkSchema } },
    async (request) => linkIntegration(deps, ctx.config.authSecret, request.body),
  );

  api.get('/v1/fpos/integration_links', { preHandler }, async (request) => ({
    items: await integrationLinksOf(deps, currentUserId(request)),
  }));

  api.delete(
    '/v1/fpos/integration_links/:client_id',
    { preHandler, schema: { params: clientParams } },
    async (request, reply) => {
      await unlinkIntegration(deps, currentUserId(request), request.params.client_id);
      return reply.status(204).send();
    },
  );

  api.post(
    '/v1/fpos/integration/report_death_suspected',
    { config: limitedAs('deathReport'), schema: { body: integrationReportSchema } },
    async (request, reply) => {
      const clientId = authenticateClient(deps, request.headers.authorization);
      await reportByIntegration(deps, clientId, request.body);
      return reply.status(202).send({ accepted: true });
    },
  );
}
