import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
} from 'fastify-type-provider-zod';
import { mediaTypesOf, type Endpoint } from '../../contract/endpoint';

const DOCUMENT_PATH = '/v1/openapi.json';
const VIEWER_PATH = '/v1/docs';

/** Only the product API and the session layer are documented; pages, files and probes are not. */
function documented(url: string): boolean {
  return url.startsWith('/v1/') || url.startsWith('/api/auth/');
}

/**
 * A body wrapped in a preprocess (a renamed field read before the rules) loses its examples on
 * the way to JSON Schema; they are put back from the schema's own metadata.
 */
function withBodyExamples<T extends { schema: unknown }>(body: unknown, transformed: T): T {
  const examples = body instanceof z.ZodType ? z.globalRegistry.get(body)?.examples : undefined;
  const json = (transformed.schema as { body?: { examples?: unknown } } | undefined)?.body;
  if (examples && json && !json.examples) json.examples = examples;
  return transformed;
}

/** A file's or page's answer in the media types it really has, not as JSON. */
function withMediaTypes<T extends { schema: unknown }>(
  endpoint: Endpoint | undefined,
  transformed: T,
): T {
  const responses = (transformed.schema as { response?: Record<string, { description?: string }> })
    ?.response;
  for (const [status, answer] of Object.entries(endpoint?.responses ?? {})) {
    const mediaTypes = mediaTypesOf(answer);
    const json = responses?.[status];
    if (!mediaTypes || !json) continue;
    responses[status] = {
      description: json.description,
      content: Object.fromEntries(
        mediaTypes.map((type) => [
          type,
          { schema: type.startsWith('text/') ? { type: 'string' } : {} },
        ]),
      ),
    } as { description?: string };
  }
  return transformed;
}

/**
 * The zod provider writes every named schema twice, as it is read (`<Name>Input`) and as it is
 * written; a generator would make a type of each. Only the ones the document refers to stay.
 */
function withoutUnusedSchemas<T extends object>(document: T): T {
  const schemas = (document as { components?: { schemas?: Record<string, unknown> } }).components
    ?.schemas;
  if (!schemas) return document;
  for (;;) {
    const text = JSON.stringify(document);
    const unused = Object.keys(schemas).filter(
      (name) => !text.includes(`"#/components/schemas/${name}"`),
    );
    if (unused.length === 0) return document;
    for (const name of unused) delete schemas[name];
  }
}

/**
 * The contract's named schemas as the server registered them. zod keeps one registry per
 * process, and the build's server render carries its own copy of the contract, whose schemas
 * take the same ids there once a page is rendered: the document would then meet two schemas of
 * one id and fail. It takes its names from a copy made when the app is ready, and each
 * schema's metadata from the registry itself (looked up by the schema, so copies cannot mix).
 */
function serverSchemas(app: FastifyInstance) {
  const registry = z.registry<z.core.GlobalMeta>();
  registry._map = z.globalRegistry._map;
  app.addHook('onReady', async () => {
    registry._idmap = new Map(z.globalRegistry._idmap);
  });
  return registry;
}

/**
 * The API document, OpenAPI 3.1 built from the contract's endpoints as they are registered
 * (contract), at GET /v1/openapi.json, and Swagger UI at /v1/docs from our own origin.
 * Registered before the routes so that it sees each of them.
 */
export async function installApiDocument(
  app: FastifyInstance,
  options: { publicUrl: string },
): Promise<void> {
  const schemaRegistry = serverSchemas(app);
  const transform = createJsonSchemaTransform({ schemaRegistry });
  const transformObject = createJsonSchemaTransformObject({ schemaRegistry });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Shinobu API',
        version: '1',
        description:
          'The product API (/v1) and the session layer (/api/auth). Requests are snake_case, ' +
          'answers camelCase; every error answers {detail, code, errors?}.',
      },
      servers: [{ url: options.publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
    },
    transform: (route) => {
      if (
        !documented(route.url) ||
        route.url === DOCUMENT_PATH ||
        route.url.startsWith(VIEWER_PATH)
      ) {
        return { schema: { ...route.schema, hide: true }, url: route.url };
      }
      const endpoint = (route.route.config as { endpoint?: Endpoint } | undefined)?.endpoint;
      return withMediaTypes(endpoint, withBodyExamples(route.schema?.body, transform(route)));
    },
    transformObject: (input) => withoutUnusedSchemas(transformObject(input)),
  });
  app.get(DOCUMENT_PATH, { schema: { hide: true } }, () => app.swagger());
  await app.register(fastifySwaggerUi, {
    routePrefix: VIEWER_PATH,
    uiConfig: { docExpansion: 'list', deepLinking: true },
    // The page's own script and style come from this origin: the app's CSP holds.
    staticCSP: false,
    transformSpecificationClone: true,
  });
}
