import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authEndpoints as endpoints, type ProviderAnswer } from '../../../contract/auth';
import type { AppContext } from '../../context';
import type { AccountDeps } from '../../domain/accounts/accountDeps';
import { logInWithIdentity } from '../../domain/accounts/login';
import {
  oauthClient,
  type AuthorizationRequest,
  type OAuthClient,
} from '../../domain/accounts/oauth';
import { issueProviderAssertion } from '../../domain/accounts/providerAssertion';
import { identityLinked } from '../../domain/accounts/registration';
import { AccountMemorialized } from '../../domain/deathDetection/restoration';
import { openCookieValue, sealCookieValue } from '../../domain/accounts/sessionCookie';
import { endpointRoute } from '../../http/endpoints';
import { type SessionKit } from './sessionKit';

/** Time allowed between leaving for the provider and coming back. */
const ROUND_TRIP_MS = 10 * 60 * 1000;
const STATE_PURPOSE = 'oauth-state';

interface PendingSignIn extends AuthorizationRequest {
  provider: string;
  callbackUrl: string;
  /** A round trip that proves this restoration link: it signs nobody in. */
  restoreToken?: string;
  /** A round trip that proves the identity of this activation link's registration. */
  activation?: { token: string; email: string };
}

/**
 * Social login (docs/accounts.md, "Social login"): the providers list, the start of a sign-in
 * at a provider and the provider's redirect back. A known identity signs straight in; a new
 * one goes to the external-provider registration with the provider's profile.
 */
export async function oauthRoutes(
  scope: FastifyInstance,
  ctx: AppContext,
  deps: AccountDeps,
  kit: SessionKit,
): Promise<void> {
  const routes = scope.withTypeProvider<ZodTypeProvider>();
  const { publicUrl, authSecret } = kit;
  const clients = new Map<string, OAuthClient>(
    ctx.config.oauthProviders.map((config) => [
      config.id,
      oauthClient(config, `${publicUrl}/api/auth/callback/${config.id}`),
    ]),
  );
  const stateCookie = { ...kit.cookieOptions, path: '/api/auth' };

  routes.route({
    ...endpointRoute(endpoints.providers),
    handler: async () => {
      const providers: Record<string, ProviderAnswer> = {
        credentials: {
          id: 'credentials',
          name: 'Credentials',
          type: 'credentials',
          signinUrl: `${publicUrl}/api/auth/signin/credentials`,
          callbackUrl: `${publicUrl}/api/auth/callback/credentials`,
        },
      };
      for (const client of clients.values()) {
        providers[client.id] = {
          id: client.id,
          name: client.name,
          type: 'oauth',
          signinUrl: `${publicUrl}/api/auth/signin/${client.id}`,
          callbackUrl: `${publicUrl}/api/auth/callback/${client.id}`,
        };
      }
      return providers;
    },
  });

  /** Leaves for the provider, keeping what the way back needs in a sealed cookie. */
  const startRoundTrip = async (
    reply: FastifyReply,
    client: OAuthClient,
    more: Omit<PendingSignIn, keyof AuthorizationRequest | 'provider'>,
  ) => {
    const { url, request: pending } = await client.authorize();
    const claims: PendingSignIn = { ...pending, provider: client.id, ...more };
    const sealed = await sealCookieValue(
      { ...claims },
      STATE_PURPOSE,
      ROUND_TRIP_MS,
      authSecret,
      ctx.clock,
    );
    reply.setCookie(kit.cookies.oauthState, sealed.value, {
      ...stateCookie,
      expires: sealed.expires,
    });
    return url;
  };

  routes.route({
    ...endpointRoute(endpoints.signInWithProvider),
    handler: async (request, reply) => {
      const callbackUrl = kit.checkedCallbackUrl(request, request.body.callbackUrl);
      kit.requireCsrf(request, request.body.csrfToken);
      const client = clients.get(request.params.provider);
      if (!client) {
        return { url: `${publicUrl}/api/auth/signin?${new URLSearchParams({ callbackUrl })}` };
      }
      return { url: await startRoundTrip(reply, client, { callbackUrl }) };
    },
  });

  const toRestoration = (query: Record<string, string>) =>
    `${publicUrl}/restore-account?${new URLSearchParams(query).toString()}`;

  /**
   * The restoration link's provider button: a round trip whose way back signs nobody in but
   * brings the provider's assertion to the link's page, which proves the link with it. A GET,
   * for it changes nothing: the proof needs the link's token and this browser's binding cookie.
   */
  routes.route({
    ...endpointRoute(endpoints.restoreWithProvider),
    handler: async (request, reply) => {
      const token = request.query.token ?? '';
      const client = clients.get(request.params.provider);
      if (!client || token === '') {
        return reply.redirect(toRestoration({ token, proof: 'failed' }));
      }
      const url = await startRoundTrip(reply, client, {
        callbackUrl: publicUrl,
        restoreToken: token,
      });
      return reply.redirect(url);
    },
  });

  const toActivation = (
    activation: { token: string; email: string },
    provider: string,
    more: Record<string, string>,
  ) =>
    `${publicUrl}/activate?${new URLSearchParams({ ...activation, provider, ...more }).toString()}`;

  /**
   * The activation link's provider button, for a registration made through a provider: a round
   * trip whose way back signs nobody in but brings the provider's assertion to the link's page,
   * which completes the registration with it. A GET, for it changes nothing: the activation
   * needs the link and this browser's binding cookie.
   */
  routes.route({
    ...endpointRoute(endpoints.activateWithProvider),
    handler: async (request, reply) => {
      const activation = { token: request.query.token ?? '', email: request.query.email ?? '' };
      const client = clients.get(request.params.provider);
      if (!client || activation.token === '' || activation.email === '') {
        return reply.redirect(
          toActivation(activation, request.params.provider, { proof: 'failed' }),
        );
      }
      const url = await startRoundTrip(reply, client, { callbackUrl: publicUrl, activation });
      return reply.redirect(url);
    },
  });

  /** Every failure of the round trip ends on the login screen with the external-provider text. */
  const failed = (reply: FastifyReply) => reply.redirect('/login?error=OAuthCallback');

  routes.route({
    ...endpointRoute(endpoints.providerCallback),
    handler: async (request, reply) => {
      const client = clients.get(request.params.provider);
      const claims = await openCookieValue(
        request.cookies[kit.cookies.oauthState],
        STATE_PURPOSE,
        authSecret,
        ctx.clock,
      );
      reply.clearCookie(kit.cookies.oauthState, stateCookie);
      const pending = claims as PendingSignIn | undefined;
      const { code, state } = request.query;
      if (
        !client ||
        !pending ||
        pending.provider !== client.id ||
        !code ||
        state !== pending.state
      ) {
        return failed(reply);
      }
      const restoring = pending?.restoreToken;
      const activating = pending?.activation;
      let profile;
      try {
        profile = await client.complete(code, pending);
      } catch (error) {
        request.log.warn({ err: error, provider: client.id }, 'social sign-in failed');
        if (activating) {
          return reply.redirect(toActivation(activating, client.id, { proof: 'failed' }));
        }
        return restoring
          ? reply.redirect(toRestoration({ token: restoring, proof: 'failed' }))
          : failed(reply);
      }
      const identity = { provider: profile.provider, providerUserId: profile.providerUserId };
      if (activating) {
        // Back to the link's page with the assertion, bound to this browser for the session
        // layer's activation (the cookie's path); the page takes it out of the address at once.
        const issued = await issueProviderAssertion(identity, authSecret, ctx.clock);
        reply.setCookie(kit.cookies.providerBinding, issued.binding, {
          ...kit.activationBindingOptions,
          expires: issued.expires,
        });
        return reply.redirect(toActivation(activating, client.id, { assertion: issued.assertion }));
      }
      if (restoring) {
        // Back to the link's page with the assertion, bound to this browser as at a first
        // sign-in; the page proves the link with it and takes it out of the address.
        const issued = await issueProviderAssertion(identity, authSecret, ctx.clock);
        reply.setCookie(kit.cookies.providerBinding, issued.binding, {
          ...kit.providerBindingOptions,
          expires: issued.expires,
        });
        return reply.redirect(toRestoration({ token: restoring, assertion: issued.assertion }));
      }
      if (await identityLinked(deps, identity.provider, identity.providerUserId)) {
        try {
          const result = await logInWithIdentity(deps, identity);
          await kit.startSession(reply, result);
          return reply.redirect(pending.callbackUrl);
        } catch (error) {
          // A member whose death was released: told what happened and mailed the way back.
          if (error instanceof AccountMemorialized) {
            const query = new URLSearchParams({
              error: 'OAuthCallback',
              code: 'account_memorialized',
              since: error.releasedAt.toISOString(),
            });
            return reply.redirect(`/login?${query.toString()}`);
          }
          return failed(reply);
        }
      }
      // First sign-in: the registration screen, prefilled. The assertion works once and only
      // with this browser's binding cookie; the screen takes it out of the address at once.
      // Query values are never logged (loggableUrl) and no Referer leaves the site
      // (Referrer-Policy: no-referrer).
      const issued = await issueProviderAssertion(identity, authSecret, ctx.clock);
      reply.setCookie(kit.cookies.providerBinding, issued.binding, {
        ...kit.providerBindingOptions,
        expires: issued.expires,
      });
      const query = new URLSearchParams({
        register: 'true',
        provider: identity.provider,
        providerUserId: identity.providerUserId,
        assertion: issued.assertion,
        ...(profile.email ? { email: profile.email } : {}),
        ...(profile.name ? { name: profile.name } : {}),
      });
      return reply.redirect(`${publicUrl}/register-top?${query}`);
    },
  });
}
