import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { tokyoToday } from '../../../contract/rules/account';
import { profileUpdateBody, socialEndpoints as social } from '../../../contract/social';
import { socialDepsOf } from '../../areaDeps';
import type { AppContext } from '../../context';
import { dashboard, mourning } from '../../domain/social/home';
import { readProfile, updateProfile, type Profile } from '../../domain/social/profile';
import { currentUserId } from '../../http/authenticate';
import { withWireMembers } from '../../domain/social/memberCards';
import { endpointRoute, withServerBody } from '../../http/endpoints';

/** The member's home: dashboard (ホーム), mourning tab (偲ぶ) and my page's profile. */
export async function homeRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const deps = socialDepsOf(ctx);
  const signed = (name: string | null) => (name ? ctx.store.signedUrl(name, 'GET') : null);

  routes.route({
    ...endpointRoute(social.readDashboard),
    handler: async (request) => {
      const summary = await dashboard(deps, currentUserId(request));
      const connectionsNews = await withWireMembers(deps, summary.connectionsNews);
      return { ...summary, connectionsNews };
    },
  });

  routes.route({
    ...endpointRoute(social.readMourning),
    handler: async (request) => {
      const tab = await mourning(deps, currentUserId(request));
      const pages = await Promise.all(
        tab.pages.map(async ({ photoName, ...page }) => ({
          ...page,
          photoUrl: await signed(photoName),
        })),
      );
      return { ...tab, pages };
    },
  });

  const wireProfile = async ({ iconName, ...profile }: Profile) => ({
    ...profile,
    iconName,
    iconUrl: await signed(iconName),
  });

  routes.route({
    ...endpointRoute(social.readProfile),
    handler: async (request) => wireProfile(await readProfile(deps, currentUserId(request))),
  });

  routes.route({
    // A birthdate may not be after today as the server's clock has it (tests move the clock).
    ...withServerBody(
      social.updateProfile,
      profileUpdateBody({ today: () => tokyoToday(ctx.clock.now()) }),
    ),
    handler: async (request) =>
      wireProfile(await updateProfile(deps, currentUserId(request), request.body)),
  });
}
