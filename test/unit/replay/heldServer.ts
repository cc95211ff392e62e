/**
 * The network end of a UI replay: every request the screen makes, through the session
 * layer's `fetch` or the product API's axios client, waits here until the path's next event
 * answers it (an actor outcome is the server's answer to the call that actor made). Requests
 * no flow event stands for (a device token, a client error log) are answered by `always`.
 */
import { AxiosError, AxiosHeaders, type AxiosAdapter, type AxiosResponse } from 'axios';
import { waitFor } from '@testing-library/react';
import { vi } from 'vitest';
import { http } from '../../../src/services/http';

export interface HeldRequest {
  method: string;
  /** The path with its query, e.g. `/api/auth/session`, `/v1/fpos/death_suspected_user`. */
  path: string;
  /** The JSON body sent, parsed (a form body as an object of its fields). */
  body: unknown;
  /** The bearer token the request carried, if any. */
  bearer: string | undefined;
  respond: (status: number, body: unknown) => void;
}

export interface Answer {
  status: number;
  body: unknown;
}

type Matcher = (request: Pick<HeldRequest, 'method' | 'path'>) => boolean;

/** A request by method and path (exact, or a pattern of the path). */
export const request =
  (method: string, path: string | RegExp): Matcher =>
  (held) =>
    held.method === method &&
    (typeof path === 'string' ? held.path === path : path.test(held.path));

export interface HeldServer {
  /** Requests not answered yet, oldest first. */
  pending: HeldRequest[];
  /** Every request made, answered or not, oldest first. */
  asked: Omit<HeldRequest, 'respond'>[];
  /** Waits for a request `matches`, and answers the oldest one. */
  answer: (matches: Matcher, answer: Answer) => Promise<Omit<HeldRequest, 'respond'>>;
  /** Answers at once, now and later, every request `matches` (calls outside the flow). */
  always: (matches: Matcher, answer: Answer) => void;
  /**
   * Fails every request still waiting, and those they lead to, until none comes for a while,
   * then puts the browser's fetch and the app's axios adapter back: a call left waiting would
   * hold the next path's calls (the HTTP client holds every call while a refresh is out).
   */
  restore: () => Promise<void>;
}

function parseBody(body: unknown): unknown {
  if (typeof body !== 'string') return body ?? null;
  try {
    return JSON.parse(body);
  } catch {
    return Object.fromEntries(new URLSearchParams(body));
  }
}

export function holdServer(): HeldServer {
  const pending: HeldRequest[] = [];
  const asked: Omit<HeldRequest, 'respond'>[] = [];
  const standing: { matches: Matcher; answer: Answer }[] = [];

  const hold = (held: HeldRequest) => {
    const { respond: _respond, ...seen } = held;
    asked.push(seen);
    const rule = standing.find(({ matches }) => matches(held));
    if (rule) held.respond(rule.answer.status, rule.answer.body);
    else pending.push(held);
  };

  const originalFetch = globalThis.fetch;
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    return new Promise<Response>((resolve) =>
      hold({
        method: (init.method ?? 'GET').toUpperCase(),
        path: url.pathname + url.search,
        body: parseBody(init.body),
        bearer: undefined,
        respond: (status, body) =>
          resolve(
            new Response(JSON.stringify(body), {
              status,
              headers: { 'content-type': 'application/json' },
            }),
          ),
      }),
    );
  });
  globalThis.fetch = fetchStub as typeof fetch;

  const originalAdapter = http.defaults.adapter;
  const adapter: AxiosAdapter = (config) =>
    new Promise((resolve, reject) => {
      const url = new URL(config.url ?? '', 'http://localhost');
      const query = config.params
        ? `?${new URLSearchParams(config.params as Record<string, string>).toString()}`
        : url.search;
      hold({
        method: (config.method ?? 'get').toUpperCase(),
        path: url.pathname + (query === '?' ? '' : query),
        body: parseBody(config.data),
        bearer: /^Bearer (.+)$/.exec(
          String(AxiosHeaders.from(config.headers).get('Authorization') ?? ''),
        )?.[1],
        respond: (status, body) => {
          const response: AxiosResponse = {
            data: JSON.stringify(body),
            status,
            statusText: String(status),
            headers: new AxiosHeaders({ 'content-type': 'application/json' }),
            config,
          };
          if (status < 400) resolve(response);
          else
            reject(
              new AxiosError(
                `Request failed with status code ${status}`,
                status < 500 ? 'ERR_BAD_REQUEST' : 'ERR_BAD_RESPONSE',
                config,
                undefined,
                response,
              ),
            );
        },
      });
    });
  http.defaults.adapter = adapter;

  return {
    pending,
    asked,
    answer: async (matches, answer) => {
      let found: HeldRequest | undefined;
      await waitFor(
        () => {
          found = pending.find(matches);
          if (!found)
            throw new Error(
              `no such request waits; waiting: ${pending.map((p) => `${p.method} ${p.path}`).join(', ') || 'none'}`,
            );
        },
        { timeout: 3000 },
      );
      pending.splice(pending.indexOf(found!), 1);
      found!.respond(answer.status, answer.body);
      const { respond: _respond, ...seen } = found!;
      return seen;
    },
    always: (matches, answer) => {
      standing.push({ matches, answer });
      for (const held of pending.filter((p) => matches(p))) {
        pending.splice(pending.indexOf(held), 1);
        held.respond(answer.status, answer.body);
      }
    },
    restore: async () => {
      for (let quiet = 0; quiet < 3;) {
        if (pending.length === 0) quiet += 1;
        else quiet = 0;
        for (const held of pending.splice(0)) held.respond(503, { detail: 'the path ended' });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      globalThis.fetch = originalFetch;
      http.defaults.adapter = originalAdapter;
    },
  };
}
