import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { connectionRoutes } from './connections';
import { homeRoutes } from './home';
import { notificationRoutes } from './notifications';
import { searchRoutes } from './search';

/** The social area: connections, user search, notifications, dashboard, mourning, my page. */
export async function socialRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await connectionRoutes(app, ctx);
  await searchRoutes(app, ctx);
  await notificationRoutes(app, ctx);
  await homeRoutes(app, ctx);
}
