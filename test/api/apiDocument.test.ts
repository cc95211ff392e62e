import { validate } from '@readme/openapi-parser';
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

  it('is browsable at /v1/docs, from this origin, under the CSP', async () => {
    const page = await t.request({ method: 'GET', url: '/v1/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>\s*\S/);
  });
});
