import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../server/app';
import { HEALTH_ANSWER_TTL_MS } from '../../server/routes/health';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('server conventions', () => {
  it('answers /healthz with 200 while the process runs', async () => {
    const response = await t.request({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz with each configured dependency named', async () => {
    const response = await t.request({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ready',
      checks: { database: 'up', objectStore: 'up' },
    });
  });

  it('answers an unknown /v1 path with 404 JSON', async () => {
    const response = await t.request({ method: 'GET', url: '/v1/no/such/thing' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.json()).toMatchObject({ code: 'not_found', detail: expect.any(String) });
  });

  it('answers malformed JSON with 400', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/_log',
      headers: { 'content-type': 'application/json' },
      body: '{"level": "error", ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'malformed_json', detail: expect.any(String) });
  });

  it('answers an oversized body with 413', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/_log',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ level: 'error', code: 'x', details: 'a'.repeat(BODY_LIMIT_BYTES) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it('answers invalid input with 422 and per-field errors', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/_log',
      body: { level: 'shout' },
    });
    expect(response.statusCode).toBe(422);
    const body = response.json();
    expect(body.code).toBe('validation_failed');
    expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['code', 'level']);
  });

  it('accepts a valid client log with 204', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/_log',
      body: { level: 'error', code: 'CLIENT_FETCH_ERROR', details: { message: 'offline' } },
    });
    expect(response.statusCode).toBe(204);
  });

  it('sends security headers and a request id on every answer', async () => {
    const response = await t.request({ method: 'GET', url: '/healthz' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('/readyz without a database', () => {
  it('answers 503 naming the database once it stops answering; /healthz stays 200', async () => {
    const other = await createTestApp();
    await other.ctx.database.close();
    const response = await other.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toEqual({
      status: 'not_ready',
      code: 'not_ready',
      detail: 'not answering: database',
      checks: { database: 'down', objectStore: 'up' },
    });
    expect((await other.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    await other.app.close();
  });

  it('asks the database at most once a second, however many probes arrive', async () => {
    const other = await createTestApp();
    const probe = () => other.app.inject({ method: 'GET', url: '/readyz' });
    expect((await probe()).statusCode).toBe(200);
    await other.ctx.database.close();
    expect((await probe()).statusCode).toBe(200);
    other.clock.advance(HEALTH_ANSWER_TTL_MS);
    expect((await probe()).statusCode).toBe(503);
    await other.app.close();
  });
});
