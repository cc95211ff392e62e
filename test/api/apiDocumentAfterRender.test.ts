import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distDir } from '../../server/lib/paths';
import { ensureSpaBuild } from '../../server/pages/build';
import { loadServerRender } from '../../server/pages/visitorPages';
import { createMember } from '../support/members';
import { createSpaApp, type SpaApp } from '../support/spaApp';

/**
 * The build's server render carries its own copy of the contract and of zod, which names its
 * schemas with the same ids as the server's: the API document must not mind what was served.
 */
describe('the API document after a page rendered by the build', () => {
  let app: SpaApp;
  beforeAll(async () => {
    // dist/, built here when older than its sources (shared with the e2e servers).
    await ensureSpaBuild(() => undefined);
    app = await createSpaApp(
      { 'index.html': readFileSync(path.join(distDir, 'index.html')) },
      { serverRender: () => loadServerRender(distDir) },
    );
  }, 240_000);
  afterAll(async () => {
    await app?.close();
  });

  it('answers 200 and a valid document when a memorial page was rendered before it was asked', async () => {
    const member = await createMember({
      ctx: app.ctx,
      clock: app.ctx.clock,
      config: app.ctx.config,
    });
    const made = await app.app.inject({
      method: 'PATCH',
      url: `/v1/memorial_page/${member.memorialPageId}`,
      headers: { authorization: `Bearer ${member.token}` },
      payload: { privacy: 'public' },
    });
    expect(made.statusCode, made.body).toBe(200);
    const rendered = await app.app.inject({
      method: 'GET',
      url: `/memory/${member.memorialPageId}`,
      headers: { accept: 'text/html' },
    });
    expect(rendered.statusCode).toBe(200);
    expect(rendered.body).toMatch(
      /<div id="root">.*<h1 id="memory-profile-title">山田 太郎<\/h1>/s,
    );

    const answer = await app.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(answer.statusCode, answer.body.slice(0, 300)).toBe(200);
    await expect(validate(answer.json())).resolves.toMatchObject({ valid: true });
    const again = await app.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(again.statusCode).toBe(200);
  });
});
