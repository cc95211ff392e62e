import type { AxiosInstance, AxiosRequestConfig } from 'axios';
import { pathOf, type AnswerOf, type CallOf, type Endpoint } from '../../../contract/endpoint';
import { loadHttp } from './lazy';

type Provided<Call> = {
  [K in keyof Call as Call[K] extends undefined ? never : K]: Call[K];
};

/** The request's parts the endpoint takes: none, or `params`, `query`, `body` as it names. */
export type CallInput<E extends Endpoint> = Provided<CallOf<E>>;

/** Extra axios options (a response type, an abort signal, the bearer's absence) pass through. */
type CallOptions = Omit<AxiosRequestConfig, 'url' | 'method' | 'params' | 'data'>;

/**
 * Calls one endpoint of the contract (contract) through the product API's client: the
 * path filled from `params`, the answer typed by the endpoint's success schema.
 */
export async function callEndpoint<E extends Endpoint>(
  endpoint: E,
  input: CallInput<E>,
  options: CallOptions = {},
): Promise<AnswerOf<E>> {
  return requestEndpoint(await loadHttp(), endpoint, input, options);
}

/** The same through a given client (a test's, or one made for another origin). */
export async function requestEndpoint<E extends Endpoint>(
  http: AxiosInstance,
  endpoint: E,
  input: CallInput<E>,
  options: CallOptions = {},
): Promise<AnswerOf<E>> {
  const { params, query, body } = input as {
    params?: Record<string, unknown>;
    query?: Record<string, unknown>;
    body?: unknown;
  };
  const { data } = await http.request<AnswerOf<E>>({
    ...options,
    method: endpoint.method,
    url: pathOf(endpoint.path, params),
    params: query,
    data: body,
  });
  return data;
}
