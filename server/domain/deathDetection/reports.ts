import { timingSafeEqual } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { fposLinks } from '../../db/schema';
import { DomainError, conflict, notFound } from '../errors';
import { spendProof } from '../spentProofs';
import { deathCaseView } from './confirmation';
import type { DeathDeps } from './deathDeps';
import { checkLinkProof } from './linkProof';
import { isAdministratorOf } from './settings';
import { raiseSuspicion } from './suspicion';

/** An administrator reports that the member may have died. */
export async function reportByAdministrator(
  deps: DeathDeps,
  administratorId: string,
  input: { user_id: string; note?: string | undefined; document_image_name?: string | undefined },
) {
  if (!(await isAdministratorOf(deps.db, administratorId, input.user_id))) throw notFound('user');
  const outcome = await raiseSuspicion(deps, input.user_id, {
    source: 'administrator',
    reporterUserId: administratorId,
    detail: {
      ...(input.note ? { note: input.note } : {}),
      ...(input.document_image_name ? { documentImageName: input.document_image_name } : {}),
    },
  });
  if (outcome === 'released') throw conflict('already_released', 'the death is released');
  return deathCaseView(deps, administratorId, input.user_id);
}

function configuredClient(deps: DeathDeps, clientId: string) {
  return deps.settings.fposClients.find((client) => client.clientId === clientId);
}

/**
 * POST /v1/fpos/verify_my_auth_access_token: the member, sent by an integration with its link
 * proof (./linkProof.ts), lets that integration know them as `fpos_user_id`. `userId` is the
 * member whose access token came in the body (checked by the route like any bearer); the proof
 * shows the integration asked for this very link, and works once.
 */
export async function linkIntegration(
  deps: DeathDeps,
  userId: string,
  input: {
    client_id: string;
    fpos_user_id: string;
    expires: number;
    signature: string;
  },
) {
  const client = configuredClient(deps, input.client_id);
  if (!client) throw notFound('client');
  const now = deps.clock.now();
  checkLinkProof(
    { clientId: input.client_id, fposUserId: input.fpos_user_id, expires: input.expires },
    input.signature,
    client.secret,
    now,
  );
  await deps.db.transaction(async (tx) => {
    const spent = await spendProof(
      tx,
      'integration-link',
      `${input.client_id}\n${input.signature}`,
      {
        now,
        expiresAt: new Date(input.expires * 1000),
      },
    );
    if (!spent) throw conflict('integration_proof_used', 'this link proof was already used');
    const [taken] = await tx
      .select({ userId: fposLinks.userId })
      .from(fposLinks)
      .where(
        and(eq(fposLinks.clientId, input.client_id), eq(fposLinks.fposUserId, input.fpos_user_id)),
      );
    if (taken && taken.userId !== userId) {
      throw conflict(
        'fpos_user_linked_elsewhere',
        'this integration user is linked to someone else',
      );
    }
    await tx
      .delete(fposLinks)
      .where(and(eq(fposLinks.clientId, input.client_id), eq(fposLinks.userId, userId)));
    await tx.insert(fposLinks).values({
      clientId: input.client_id,
      fposUserId: input.fpos_user_id,
      userId: userId,
      createdAt: now,
    });
  });
  return {
    userId: userId,
    clientId: input.client_id,
    fposUserId: input.fpos_user_id,
    linked: true,
  };
}

/** The integrations the member is linked to, oldest first. */
export async function integrationLinksOf(deps: DeathDeps, userId: string) {
  return deps.db
    .select({
      clientId: fposLinks.clientId,
      fposUserId: fposLinks.fposUserId,
      createdAt: fposLinks.createdAt,
    })
    .from(fposLinks)
    .where(eq(fposLinks.userId, userId))
    .orderBy(asc(fposLinks.createdAt), asc(fposLinks.clientId));
}

export async function unlinkIntegration(deps: DeathDeps, userId: string, clientId: string) {
  await deps.db
    .delete(fposLinks)
    .where(and(eq(fposLinks.clientId, clientId), eq(fposLinks.userId, userId)));
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The integration's server authenticates with HTTP Basic `client_id:secret`. */
export function authenticateClient(deps: DeathDeps, authorization: string | undefined): string {
  const refused = () =>
    new DomainError('unauthenticated', 'invalid_client', 'client authentication failed');
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(authorization ?? '');
  if (!match) throw refused();
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  const clientId = decoded.slice(0, separator);
  const client = separator > 0 ? configuredClient(deps, clientId) : undefined;
  if (!client || !sameSecret(decoded.slice(separator + 1), client.secret)) throw refused();
  return clientId;
}

/** An integration reports a member it knows (linked) may have died. */
export async function reportByIntegration(
  deps: DeathDeps,
  clientId: string,
  input: { fpos_user_id: string; note?: string | undefined },
): Promise<void> {
  const [link] = await deps.db
    .select({ userId: fposLinks.userId })
    .from(fposLinks)
    .where(and(eq(fposLinks.clientId, clientId), eq(fposLinks.fposUserId, input.fpos_user_id)));
  if (!link) throw notFound('fpos user');
  await raiseSuspicion(deps, link.userId, {
    source: 'integration',
    clientId,
    detail: { fposUserId: input.fpos_user_id, ...(input.note ? { note: input.note } : {}) },
  });
}
