import type { AxiosRequestConfig } from 'axios';
import { pathOf, type AnswerOf, type CallOf, type Endpoint } from '../../contract/endpoint';
import { loadHttp } from './lazy';

type Provided<Call> = {
  [K in keyof Call as Call[K] extends undefined ? never : K]: Call[K];
};

/** The request's parts the endpoint takes: none, or `params`, `query`, `body` as it names. */
export type CallInput<E extends Endpoint> = Provided<CallOf<E>>;

/**
 * Calls one endpoint of the contract (src/contract) through the product API's client: the
 * path filled from `params`, the answer typed by the endpoint's success schema. Extra axios
 * options (a response type, an abort signal) pass through.
 */
export async function callEndpoint<E extends Endpoint>(
  endpoint: E,
  input: CallInput<E>,
  options: Omit<AxiosRequestConfig, 'url' | 'method' | 'params' | 'data'> = {},
): Promise<AnswerOf<E>> {
  const { params, query, body } = input as {
    params?: Record<string, unknown>;
    query?: Record<string, unknown>;
    body?: unknown;
  };
  const http = await loadHttp();
  const { data } = await http.request<AnswerOf<E>>({
    ...options,
    method: endpoint.method,
    url: pathOf(endpoint.path, params),
    params: query,
    data: body,
  });
  return data;
}
