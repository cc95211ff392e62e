import { createHttpClients } from './httpClients';
import { connectedSession } from './connection';

export {
  callPath,
  isHandledBySession,
  isQuietHttpError,
  type HttpClients,
  type HttpSession,
  type RefreshOutcome,
} from './httpClients';
export { connectHttpSession } from './connection';

/** The product API `/v1` (same origin). */
export const httpClients = createHttpClients({ session: connectedSession });

/** The one axios instance of the product API. */
export const http = httpClients.http;
