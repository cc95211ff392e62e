import { AxiosError, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import { describe, expect, it } from 'vitest';
import {
  camelCaseKey,
  snakeCaseKey,
  toCamelCase,
  toSnakeCase,
} from '../../src/services/http/casing';
import { callPath, createHttpClients } from '../../src/services/http/httpClients';

describe('wire casing', () => {
  it('converts keys both ways, deeply, and leaves values alone', () => {
    expect(snakeCaseKey('userIconUrl')).toBe('user_icon_url');
    expect(snakeCaseKey('already_snake')).toBe('already_snake');
    expect(camelCaseKey('first_name_kana')).toBe('firstNameKana');
    expect(
      toSnakeCase({ userRequest: { firstName: 'a', tags: [{ sexCode: 1 }] }, note: 'keepThis' }),
    ).toEqual({ user_request: { first_name: 'a', tags: [{ sex_code: 1 }] }, note: 'keepThis' });
    expect(toCamelCase({ errors: [{ field: 'first_name', code: 'required' }] })).toEqual({
      errors: [{ field: 'first_name', code: 'required' }],
    });
    const date = new Date(0);
    expect(toCamelCase({ created_at: date })).toEqual({ createdAt: date });
  });

  it('names a call by its path whatever the base URL', () => {
    expect(callPath({ url: '/v1/memory/1', baseURL: 'http://127.0.0.1:9' })).toBe('/v1/memory/1');
    expect(callPath({ url: 'http://example.jp/v1/login?x=1' })).toBe('/v1/login');
  });
});

describe('HTTP client requests', () => {
  /** The network end of axios: records what would go on the wire and answers snake_case. */
  function recorder() {
    const sent: InternalAxiosRequestConfig[] = [];
    const adapter: AxiosAdapter = async (config) => {
      sent.push(config);
      return {
        data: '{"memorial_page_id":"m-1"}',
        status: 200,
        statusText: 'OK',
        headers: {},
        config,
      };
    };
    const { http } = createHttpClients({
      session: {
        accessToken: async () => 'token-1',
        refresh: async () => ({ ok: false, loggedOut: true }),
        authorisationFailed: () => undefined,
      },
    });
    http.defaults.adapter = adapter;
    return { http, sent };
  }

  it('sends params and JSON bodies in snake_case with the bearer token', async () => {
    const { http, sent } = recorder();
    const answer = await http.post(
      '/v1/thing',
      { imageName: 'a.png' },
      { params: { imageName: 'a.png', method: 'GET' } },
    );
    expect(answer.data).toEqual({ memorialPageId: 'm-1' });
    expect(sent[0]!.params).toEqual({ image_name: 'a.png', method: 'GET' });
    expect(JSON.parse(sent[0]!.data as string)).toEqual({ image_name: 'a.png' });
    expect(sent[0]!.headers.get('Authorization')).toBe('Bearer token-1');
  });

  it('keeps a form-encoded body form-encoded and sends no token when asked not to', async () => {
    const { http, sent } = recorder();
    await http.post('/v1/login', new URLSearchParams({ username: 'a@example.jp', password: 'p' }), {
      authenticate: false,
    });
    expect(String(sent[0]!.data)).toBe('username=a%40example.jp&password=p');
    expect(sent[0]!.headers.get('Content-Type')).toMatch(/application\/x-www-form-urlencoded/);
    expect(sent[0]!.headers.get('Authorization')).toBeUndefined();
  });
});

describe('HTTP client 401s', () => {
  /** A client whose every call answers 401, counting what it asked of the session. */
  function refusing() {
    const asked = { refreshes: 0, failures: [] as string[] };
    const { http } = createHttpClients({
      session: {
        accessToken: async () => 'token-1',
        refresh: async () => {
          asked.refreshes += 1;
          return { ok: false, loggedOut: true };
        },
        authorisationFailed: (path) => asked.failures.push(path),
      },
    });
    http.defaults.adapter = async (config) => {
      const response = { data: '{}', status: 401, statusText: 'Unauthorized', headers: {}, config };
      throw new AxiosError('401', 'ERR_BAD_REQUEST', config, undefined, response);
    };
    return { http, asked };
  }

  it('refreshes, then reports a call that carried the session', async () => {
    const { http, asked } = refusing();
    await expect(http.get('/v1/memorial_page/m-1')).rejects.toMatchObject({
      response: { status: 401 },
    });
    expect(asked).toEqual({ refreshes: 1, failures: ['/v1/memorial_page/m-1'] });
  });

  it('neither refreshes nor reports a call sent without the session', async () => {
    const { http, asked } = refusing();
    await expect(http.get('/v1/memorial_page/m-1', { authenticate: false })).rejects.toMatchObject({
      response: { status: 401 },
    });
    expect(asked).toEqual({ refreshes: 0, failures: [] });
  });
});
