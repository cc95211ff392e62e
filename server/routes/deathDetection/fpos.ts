import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deathDetectionEndpoints as death } from '../../../contract/deathDetection';
import type { AppContext } from '../../context';
import { auditLogOf } from '../../domain/deathDetection/audit';
import {
  confirmDeath,
  createSignRequest,
  deathCaseView,
} from '../../domain/deathDetection/confirmation';
import { deathDepsOf } from '../../areaDeps';
import {
  authenticateClient,
  integrationLinksOf,
  linkIntegration,
  reportByAdministrator,
  reportByIntegration,
  unlinkIntegration,
} from '../../domain/deathDetection/reports';
import { claimUpload } from '../../domain/uploads/uploads';
import { sameChoices } from '../../domain/deathDetection/afterDeath';
import {
  acceptAdministration,
  administeredUsers,
  choicesAfterSave,
  getDeathSettings,
  isAdministratorOf,
  putDeathSettings,
} from '../../domain/deathDetection/settings';
import {
  administeredUserWithSuspectedDeath,
  cancelSuspicion,
  deathSuspectedUser,
} from '../../domain/deathDetection/suspicion';
import { currentUserId, verifiedAccessToken } from '../../http/authenticate';
import { endpointRoute } from '../../http/endpoints';
import { DomainError } from '../../domain/errors';
import { notFound } from '../../http/errors';
import { limitedAs } from '../../http/rateLimits';
import { noticeOfChange, proveFreshly } from '../accounts/freshProof';

const sameMembers = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** The `/v1/fpos/*` calls: administrators, suspicion, confirmation, integrations. */
export async function fposRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps = deathDepsOf(ctx);
  const limitedAsDeathReport = (route: { config: object }) => ({
    ...route.config,
    ...limitedAs('deathReport'),
  });

  api.route({
    ...endpointRoute(death.readDeathSettings),
    handler: async (request) => getDeathSettings(deps, currentUserId(request)),
  });

  // Naming administrators, changing their rule or the choices for after one's death needs a
  // fresh proof and is told by mail; the check-in period alone does not.
  api.route({
    ...endpointRoute(death.saveDeathSettings),
    handler: async (request) => {
      const userId = currentUserId(request);
      const before = await getDeathSettings(deps, userId);
      const wanted = request.body;
      const administratorsChanged =
        before.rule !== wanted.rule ||
        !sameMembers(
          before.administrators.map((administrator) => administrator.userId),
          wanted.administrator_user_ids,
        );
      const choicesChanged = !sameChoices(
        before.afterDeath,
        await choicesAfterSave(deps.db, userId, wanted),
      );
      const proven =
        administratorsChanged || choicesChanged ? await proveFreshly(ctx, request) : undefined;
      const after = await putDeathSettings(deps, userId, wanted);
      if (proven && administratorsChanged) await noticeOfChange(ctx, proven, 'death_settings');
      if (proven && choicesChanged) await noticeOfChange(ctx, proven, 'after_death');
      return after;
    },
  });

  api.route({
    ...endpointRoute(death.listAdministeredUsers),
    handler: async (request) => ({ items: await administeredUsers(deps, currentUserId(request)) }),
  });

  api.route({
    ...endpointRoute(death.readDeathSuspectedUser),
    handler: async (request) => {
      const found = await deathSuspectedUser(deps, currentUserId(request));
      return (
        found ?? {
          userId: null,
          memorialPageId: null,
          lastName: null,
          firstName: null,
          state: null,
        }
      );
    },
  });

  api.route({
    ...endpointRoute(death.readAdministeredUserWithSuspectedDeath),
    handler: async (request) => ({
      userId: await administeredUserWithSuspectedDeath(deps, currentUserId(request)),
    }),
  });

  // Only the member themself clears their suspicion; anyone else's id is unknown to them.
  api.route({
    ...endpointRoute(death.cancelSuspicion),
    handler: async (request) => {
      const userId = currentUserId(request);
      if (request.body.death_suspected_user_id !== userId) throw notFound('user');
      const cancelled = await cancelSuspicion(deps, userId, 'cancel');
      return { state: 'alive' as const, mailsWithdrawn: cancelled?.mailsWithdrawn ?? 0 };
    },
  });

  // Accepting being named shows the member that the administrator knows and agrees.
  api.route({
    ...endpointRoute(death.acceptAdministration),
    handler: async (request) =>
      acceptAdministration(deps, currentUserId(request), request.params.user_id),
  });

  const reportRoute = endpointRoute(death.reportDeathSuspected);
  api.route({
    ...reportRoute,
    config: limitedAsDeathReport(reportRoute),
    handler: async (request, reply) => {
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
  });

  api.route({
    ...endpointRoute(death.readDeathCase),
    handler: async (request) => deathCaseView(deps, currentUserId(request), request.params.user_id),
  });

  api.route({
    ...endpointRoute(death.readDeathAuditLog),
    handler: async (request) => {
      const callerId = currentUserId(request);
      const userId = request.params.user_id;
      if (callerId !== userId && !(await isAdministratorOf(deps.db, callerId, userId))) {
        throw notFound('user');
      }
      return { items: await auditLogOf(deps.db, userId) };
    },
  });

  api.route({
    ...endpointRoute(death.requestConfirmationSign),
    handler: async (request, reply) =>
      reply.status(201).send(await createSignRequest(deps, currentUserId(request), request.body)),
  });

  const confirmRoute = endpointRoute(death.confirmDeath);
  api.route({
    ...confirmRoute,
    config: limitedAsDeathReport(confirmRoute),
    handler: async (request, reply) =>
      reply.status(201).send(await confirmDeath(deps, currentUserId(request), request.body)),
  });

  api.route({
    ...endpointRoute(death.linkIntegration),
    handler: async (request) => {
      const { access_token: accessToken, ...link } = request.body;
      // The member's token comes in the body, and stands only while its session does.
      const claims = await verifiedAccessToken(ctx, accessToken);
      if (!claims)
        throw new DomainError('unauthenticated', 'invalid_token', 'the access token is not valid');
      return linkIntegration(deps, claims.userId, link);
    },
  });

  api.route({
    ...endpointRoute(death.listIntegrationLinks),
    handler: async (request) => ({
      items: await integrationLinksOf(deps, currentUserId(request)),
    }),
  });

  api.route({
    ...endpointRoute(death.unlinkIntegration),
    handler: async (request, reply) => {
      await unlinkIntegration(deps, currentUserId(request), request.params.client_id);
      return reply.status(204).send();
    },
  });

  const integrationRoute = endpointRoute(death.integrationReport);
  api.route({
    ...integrationRoute,
    config: limitedAsDeathReport(integrationRoute),
    handler: async (request, reply) => {
      const clientId = authenticateClient(deps, request.headers.authorization);
      await reportByIntegration(deps, clientId, request.body);
      return reply.status(202).send({ accepted: true as const });
    },
  });
}
