import { expect, type APIRequestContext } from '@playwright/test';

/** The server's clock now (other specs may have moved it forward): a 1 ms step answers it. */
export async function serverNow(request: APIRequestContext): Promise<number> {
  const response = await request.post('/v1/test/clock', { data: { advance_ms: 1 } });
  expect(response.status(), await response.text()).toBe(200);
  return Date.parse(((await response.json()) as { now: string }).now);
}
