import { validate } from '@readme/openapi-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
let document: OpenAPIV3_1.Document;
beforeAll(async () => {
  t = await createTestApp();
  document = (await t.request({ method: 'GET', url: '/v1/openapi.json' })).json();
});
afterAll(async () => {
  await t.close();
});

/** The routes the document must carry: the product API and the session layer. */
const apiRoutes = () =>
  t.routes.filter(
    (route) =>
      (route.url.startsWith('/v1/') || route.url.startsWith('/api/auth/')) &&
      route.url !== '/v1/openapi.json' &&
      !route.url.startsWith('/v1/docs'),
  );

/** Fastify's `/a/:id` as OpenAPI writes it: `/a/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}');

function operation(method: string, url: string): OpenAPIV3_1.OperationObject | undefined {
  const item = document.paths?.[openApiPath(url)] as Record<string, OpenAPIV3_1.OperationObject>;
  return item?.[method.toLowerCase()];
}

/**
 * What Redocly's recommended rules may still say of the document, each where and why; any
 * other problem fails, and so does an entry here that no longer occurs.
 */
const LINT_ALLOWED: Record<string, { why: string; at: string[] }> = {
  'info-license': {
    why: 'the product is private (package.json) and published under no licence',
    at: ['#/info'],
  },
  'no-server-example.com': {
    why: 'the tests serve the document from localhost; a running server names its PUBLIC_URL',
    at: ['#/servers/0/url'],
  },
  'no-ambiguous-paths': {
    why:
      'published /v1 paths kept as partners call them; the router prefers the static segment ' +
      '(get_memorial_page_admin, add_memorial_page_admin), so each request has one route',
    at: [
      '#/paths/~1v1~1memorial_page~1{id}~1condolences',
      '#/paths/~1v1~1memorial_page~1{id}~1condolences~1{condolenceId}',
      '#/paths/~1v1~1memorial_page~1{id}~1flowers',
      '#/paths/~1v1~1memorial_page~1{id}~1keepsakes',
      '#/paths/~1v1~1memorial_page~1{id}~1share_image.jpg',
    ],
  },
  'operation-2xx-response': {
    why:
      "the session layer's sign-in, callback, restoration and activation round trips and error steps answer " +
      'redirects, as its protocol has them',
    at: [
      '#/paths/~1api~1auth~1error/get/responses',
      '#/paths/~1api~1auth~1signin/get/responses',
      '#/paths/~1api~1auth~1callback~1{provider}/get/responses',
      '#/paths/~1api~1auth~1restore~1{provider}/get/responses',
      '#/paths/~1api~1auth~1activate~1{provider}/get/responses',
    ],
  },
  'no-illogical-composition-keywords': {
    why:
      'the share-token check accepts any body (a malformed one is answered isValid: false); ' +
      'the document shows the invitation it expects',
    at: [
      '#/paths/~1v1~1share_token~1validate_share_token/post/requestBody/content/application~1json/schema/anyOf',
    ],
  },
};

describe('the API document', () => {
  it('is OpenAPI 3.1 that a standard validator accepts', async () => {
    expect(document.openapi).toBe('3.1.0');
    await expect(validate(structuredClone(document))).resolves.toMatchObject({ valid: true });
  });

  it('serves every registered route of /v1 and /api/auth from the contract', () => {
    const routes = apiRoutes();
    const withoutContract = routes
      .filter((route) => !route.endpoint)
      .map((r) => `${r.method} ${r.url}`);
    const missing = routes
      .filter((route) => !operation(route.method, route.url))
      .map((route) => `${route.method} ${route.url}`);
    expect(withoutContract).toEqual([]);
    expect(missing).toEqual([]);
    console.info(`API document: ${routes.length} routes of ${routes.length} registered`);
  });

  it('names for each route its success, its errors in one shape and who may call it', () => {
    for (const route of apiRoutes()) {
      const op = operation(route.method, route.url);
      const statuses = Object.keys(op?.responses ?? {});
      expect(
        statuses.some((status) => /^[23]/.test(status)),
        `${route.url}`,
      ).toBe(true);
      expect(statuses, `${route.method} ${route.url}`).toEqual(expect.arrayContaining(['500']));
      const error = (op?.responses?.['500'] as OpenAPIV3_1.ResponseObject).content?.[
        'application/json'
      ]?.schema as OpenAPIV3_1.ReferenceObject | undefined;
      expect(error?.$ref, route.url).toBe('#/components/schemas/Error');
      if (route.endpoint?.caller === 'member') {
        expect(op?.security, route.url).toEqual([{ bearer: [] }]);
        expect(statuses, route.url).toContain('401');
      }
    }
    expect(document.components?.securitySchemes?.bearer).toMatchObject({ scheme: 'bearer' });
  });

  it('shows an example of every request body, in snake_case on /v1', () => {
    for (const route of apiRoutes().filter((r) => r.endpoint?.body)) {
      const op = operation(route.method, route.url);
      const body = op?.requestBody as OpenAPIV3_1.RequestBodyObject;
      // @fastify/swagger moves a schema's single example up to the media type as `example`.
      const media = Object.values(body.content)[0] as OpenAPIV3_1.MediaTypeObject | undefined;
      const named = (media?.schema as OpenAPIV3_1.ReferenceObject | undefined)?.$ref;
      const schema = (
        named
          ? document.components?.schemas?.[named.replace('#/components/schemas/', '')]
          : media?.schema
      ) as { examples?: object[] } | undefined;
      const example = (media?.example ?? schema?.examples?.[0]) as object | undefined;
      expect(example, `${route.method} ${route.url}`).toBeDefined();
      // The session layer speaks the NextAuth protocol's own field names (csrfToken, callbackUrl).
      if (route.url.startsWith('/api/auth/')) continue;
      for (const key of Object.keys(example ?? {})) {
        expect(key, route.url).toMatch(/^[a-z0-9_]+$/);
      }
    }
  });

  it('names every operation by its endpoint in the contract, once', () => {
    const operations = apiRoutes().map((route) => ({
      route: `${route.method} ${route.url}`,
      operationId: operation(route.method, route.url)?.operationId,
      name: route.endpoint?.operationId,
    }));
    const unnamed = operations.filter(({ operationId }) => !operationId).map(({ route }) => route);
    expect(unnamed).toEqual([]);
    for (const { route, operationId, name } of operations) {
      expect(operationId, route).toBe(name);
      expect(operationId, route).toMatch(/^[a-z][A-Za-z0-9]*$/);
    }
    const ids = operations.map(({ operationId }) => operationId);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it('holds only the components it refers to', () => {
    const text = JSON.stringify(document.paths);
    const schemas = document.components?.schemas ?? {};
    const referred = new Set<string>();
    const visit = (json: string) => {
      for (const [, name] of json.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
        if (name && !referred.has(name)) {
          referred.add(name);
          visit(JSON.stringify(schemas[name]));
        }
      }
    };
    visit(text);
    expect(Object.keys(schemas).filter((name) => !referred.has(name))).toEqual([]);
    expect(referred.size).toBeGreaterThan(20);
  });

  it('holds only examples that their own schema accepts', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...structuredClone(document), $id: 'https://document.invalid/' });
    const pointer = (at: string[]) =>
      at.map((key) => encodeURIComponent(key.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
    const checked: string[] = [];
    const broken: string[] = [];
    const check = (schemaAt: string[], example: unknown, where: string) => {
      const validateExample = ajv.compile({
        $ref: `https://document.invalid/#/${pointer(schemaAt)}`,
      });
      checked.push(where);
      if (!validateExample(example))
        broken.push(`${where}: ${ajv.errorsText(validateExample.errors)}`);
    };
    const walk = (node: unknown, at: string[]) => {
      if (!node || typeof node !== 'object') return;
      const object = node as Record<string, unknown>;
      const isMedia = at.at(-2) === 'content' && 'schema' in object;
      if (isMedia && 'example' in object) check([...at, 'schema'], object.example, at.join('/'));
      if (isMedia && object.examples && typeof object.examples === 'object') {
        for (const [name, named] of Object.entries(object.examples)) {
          check([...at, 'schema'], (named as { value?: unknown }).value, `${at.join('/')}#${name}`);
        }
      }
      // A schema's own `examples` (JSON Schema: an array of values it accepts).
      if (!isMedia && Array.isArray(object.examples) && at.at(-1) !== 'properties') {
        object.examples.forEach((example, index) =>
          check(at, example, `${at.join('/')}[${index}]`),
        );
      }
      for (const [key, inner] of Object.entries(object)) {
        if (key !== 'examples' && key !== 'example') walk(inner, [...at, key]);
      }
    };
    walk(document, []);
    expect(broken).toEqual([]);
    expect(checked.length).toBeGreaterThan(50);
  });

  it("documents each answer's real media type: the check-in link answers a page", async () => {
    const get = operation('GET', '/v1/fpos/check_in/:token');
    const page = get?.responses?.['200'] as OpenAPIV3_1.ResponseObject;
    expect(Object.keys(page.content ?? {})).toEqual(['text/html']);
    const served = await t.request({ method: 'GET', url: `/v1/fpos/check_in/${'x'.repeat(40)}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toMatch(/^text\/html/);
    const exported = operation('GET', '/v1/endingnote/:userId/export')?.responses?.['200'];
    expect(
      Object.keys((exported as OpenAPIV3_1.ResponseObject | undefined)?.content ?? {}),
    ).toEqual(['application/json', 'text/html']);
  });

  it("passes Redocly's recommended rules, but for the reasoned allow-list", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: '/openapi.json',
      config,
    });
    const errors = problems.filter((problem) => problem.severity === 'error');
    expect(errors.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    const found: Record<string, string[]> = {};
    for (const problem of problems) {
      (found[problem.ruleId] ??= []).push(problem.location[0]?.pointer ?? '?');
    }
    const allowed = Object.fromEntries(
      Object.entries(LINT_ALLOWED).map(([rule, { at }]) => [rule, [...at].sort()]),
    );
    for (const pointers of Object.values(found)) pointers.sort();
    expect(found).toEqual(allowed);
  });

  it('is browsable at /v1/docs, from this origin, under the CSP', async () => {
    const page = await t.request({ method: 'GET', url: '/v1/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>\s*\S/);
  });
});
