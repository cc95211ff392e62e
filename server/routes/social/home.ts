import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { profileUpdateSchema } from '../../../src/contract/rules/social';
import { tokyoToday } from '../../../src/contract/rules/account';
import type { AppContext } from '../../context';
import { dashboard, mourning } from '../../domain/social/home';
import { readProfile, updateProfile, type Profile } from '../../domain/social/profile';
import { currentUserId, requireUser } from '../../http/authenticate';
import { withWireMembers } from '../../domain/social/memberCards';

/** The member's home: dashboard (ホーム), mourning tab (偲ぶ) and my page's profile. */
export async function homeRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const preHandler = requireUser(ctx);
  const signed = (name: string | null) => (name ? ctx.store.signedUrl(name, 'GET') : null);

  api.get('/v1/dashboard', { preHandler }, async (request) => {
    const summary = await dashboard(db, currentUserId(request), ctx.clock.now());
    const connectionsNews = await withWireMembers(
      db,
      ctx.store,
      ctx.clock.now(),
      summary.connectionsNews,
    );
    return { ...summary, connectionsNews };
  });

  api.get('/v1/mourning', { preHandler }, async (request) => {
    const tab = await mourning(db, currentUserId(request), ctx.clock.now());
    const pages = await Promise.all(
      tab.pages.map(async ({ photoName, ...page }) => ({
        ...page,
        photoUrl: await signed(photoName),
      })),
    );
    return { ...tab, pages };
  });

  const wireProfile = async ({ iconName, ...profile }: Profile) => ({
    ...profile,
    iconName,
    iconUrl: await signed(iconName),
  });

  api.get('/v1/mypage/profile', { preHandler }, async (request) =>
    wireProfile(await readProfile(db, currentUserId(request))),
  );

  api.patch(
    '/v1/mypage/profile',
    {
      preHandler,
      schema: { body: profileUpdateSchema({ today: () => tokyoToday(ctx.clock.now()) }) },
    },
    async (request) =>
      wireProfile(
        await updateProfile(
          { db, store: ctx.store },
          currentUserId(request),
          request.body,
          ctx.clock.now(),
        ),
      ),
  );
}
