import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { socialEndpoints as social } from '../../../contract/social';
import { socialDepsOf } from '../../areaDeps';
import type { AppContext } from '../../context';
import { searchMembers, type SearchCursor } from '../../domain/social/search';
import { currentUserId } from '../../http/authenticate';
import { endpointRoute } from '../../http/endpoints';
import { invalid } from '../../http/errors';
import { withCertificated, withIconUrls } from '../../domain/social/memberCards';
import { limitedAs } from '../../http/rateLimits';

const cursorSchema = z.object({
  group: z.enum(['prefix', 'inner']),
  reading: z.string().max(500),
  userId: z.uuid(),
});

/** The cursor travels as base64url JSON: opaque to the client, checked when it comes back. */
function encodeCursor(cursor: SearchCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string): SearchCursor {
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
  } catch {
    throw invalid([{ field: 'cursor', code: 'cursor_invalid' }]);
  }
}

/** ユーザー検索: members by name, written or read, whole or partial (docs/social.md). */
export async function searchRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const search = endpointRoute(social.searchMembers);
  const deps = socialDepsOf(ctx);
  app.withTypeProvider<ZodTypeProvider>().route({
    ...search,
    config: { ...search.config, ...limitedAs('search') },
    handler: async (request) => {
      const { q, cursor, per_page: perPage } = request.query;
      const { items, nextCursor } = await searchMembers(deps, currentUserId(request), q, {
        cursor: cursor ? decodeCursor(cursor) : undefined,
        limit: perPage,
      });
      return {
        items: await withCertificated(deps, await withIconUrls(deps, items)),
        nextCursor: nextCursor ? encodeCursor(nextCursor) : null,
      };
    },
  });
}
