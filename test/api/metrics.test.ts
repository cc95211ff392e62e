import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailOutbox } from '../../server/jobs/mailOutbox';
import { createSpaApp } from '../support/spaApp';
import { createTestApp, type TestApp } from '../support/testApp';
import { registrationBody } from './accountsSupport';

const TOKEN = 'metrics-token-for-the-scraper-0123';

let t: TestApp;
beforeAll(async () => {
  // One search a minute: the second is refused and counted.
  t = await createTestApp({ METRICS_TOKEN: TOKEN, RATE_LIMIT_SEARCH_PER_MINUTE: '1' });
});
afterAll(async () => {
  await t.close();
});

const scrape = (token?: string) =>
  t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

/** The value of one series in the Prometheus text, by its name and labels as printed. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('answers only the bearer of METRICS_TOKEN', async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape('another-token-of-the-same-size!!!!')).statusCode).toBe(401);
    const answer = await scrape(TOKEN);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('counts requests per route pattern with their latency, not per path', async () => {
    for (const id of ['11111111-1111-1111-1111-111111111111', 'a-b-c']) {
      await t.request({ method: 'GET', url: `/v1/user/${id}` });
    }
    const text = (await scrape(TOKEN)).body;
    expect(
      valueOf(
        text,
        'shinobu_http_requests_total{method="GET",route="/v1/user/:userId",status="401"}',
      ),
    ).toBe(2);
    expect(
      valueOf(
        text,
        'shinobu_http_request_duration_seconds_count{method="GET",route="/v1/user/:userId"}',
      ),
    ).toBe(2);
    expect(text).not.toContain('11111111-1111');
  });

  it('shows the outbox backlog and its oldest mail, the job passes and the database pool', async () => {
    await t.app.inject({ method: 'POST', url: '/v1/user', payload: registrationBody() });
    t.clock.advance(90_000);
    let text = (await scrape(TOKEN)).body;
    expect(valueOf(text, 'shinobu_mail_outbox_pending')).toBe(1);
    expect(valueOf(text, 'shinobu_mail_outbox_oldest_pending_seconds')).toBe(90);
    expect(valueOf(text, 'shinobu_db_pool_connections')).toBeGreaterThanOrEqual(1);

    const job = startMailOutbox(t.ctx, 60 * 60_000);
    await job.run();
    await job.stop();
    text = (await scrape(TOKEN)).body;
    expect(valueOf(text, 'shinobu_mail_outbox_pending')).toBe(0);
    expect(valueOf(text, 'shinobu_mail_outbox_oldest_pending_seconds')).toBe(0);
    expect(valueOf(text, 'shinobu_mails_sent_total{kind="activation"}')).toBe(1);
    expect(valueOf(text, 'shinobu_job_runs_total{job="mails sent"}')).toBe(1);
    expect(text).toContain('shinobu_rate_limit_refusals_total');
    expect(text).toContain('shinobu_process_resident_memory_bytes');
  });
});

describe('rate-limit refusals', () => {
  it('are counted by the limit that refused them', async () => {
    const search = () => t.app.inject({ method: 'GET', url: '/v1/user_search?q=%E3%82%84' });
    const before = valueOf(
      (await scrape(TOKEN)).body,
      'shinobu_rate_limit_refusals_total{limit="search"}',
    );
    expect(before ?? 0).toBe(0);
    expect((await search()).statusCode).not.toBe(429);
    expect((await search()).statusCode).toBe(429);
    const text = (await scrape(TOKEN)).body;
    expect(valueOf(text, 'shinobu_rate_limit_refusals_total{limit="search"}')).toBe(1);
  });
});

describe('without METRICS_TOKEN', () => {
  it('has no metrics endpoint', async () => {
    const plain = await createTestApp();
    try {
      expect((await plain.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe('pages served by the SPA fallback', () => {
  it('are counted under the route pattern the client shows, apart from real 404s', async () => {
    const spa = await createSpaApp({
      'index.html': '<!doctype html><html><head><title>t</title></head><body></body></html>',
    });
    try {
      const get = (url: string, accept: string) =>
        spa.app.inject({ method: 'GET', url, headers: { accept } });
      expect(
        (await get('/memory/11111111-1111-1111-1111-111111111111', 'text/html')).statusCode,
      ).toBe(200);
      // A member-only page asked for by a visitor: its redirect to the sign-in counts there too.
      expect((await get('/timecapsule/letters/abc', 'text/html')).statusCode).toBe(302);
      expect((await get('/v1/no-such-call', 'application/json')).statusCode).toBe(404);
      const text = await spa.ctx.metrics.registry.metrics();
      const series = (route: string, status: number) =>
        valueOf(
          text,
          `shinobu_http_requests_total{method="GET",route="${route}",status="${status}"}`,
        );
      expect(series('/memory/:memorialPageId', 200)).toBe(1);
      expect(series('/timecapsule/letters/:letterId', 302)).toBe(1);
      expect(series('unmatched', 404)).toBe(1);
      expect(text).not.toMatch(/route="unmatched",status="(200|302)"/);
    } finally {
      await spa.close();
    }
  });
});
