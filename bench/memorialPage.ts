/**
 * Memorial page load: Lighthouse on the mobile profile, with the throttling applied to the
 * browser (the figure of record) and simulated (Lighthouse's default), for a
 * public page with a photo, a few album photos and history entries made through the real API
 * (signed-URL uploads, server thumbnails) of the production server.
 */
import { ensureSpaBuild } from '../server/pages/build';
import { jpegPhoto } from '../test/api/memorialSupport';
import { MEDIAN_NOTE, launchLighthouseChromium, measureWithLighthouse } from './lighthouse';
import { createBenchSite, startServer, type BenchSite } from './server';
import type { BenchModule, BenchRow } from './types';

const PORT = 4251;
const DEBUGGING_PORT = 4252;
const PHOTOS = 6;
const HISTORY_ENTRIES = 5;
const LCP_LIMIT_MS = 1500;
const CLS_LIMIT = 0.1;
const HYDRATED_LIMIT_MS = 3500;

/** One API call as the bench member; fails loudly on anything but the expected status. */
async function call(
  baseUrl: string,
  site: BenchSite,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${site.member.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? undefined : response.json();
}

/** Uploads a camera-like JPEG through a signed PUT URL; answers its object name. */
async function uploadPhoto(baseUrl: string, site: BenchSite, index: number): Promise<string> {
  const { url, imageName } = (await call(
    baseUrl,
    site,
    'GET',
    `/v1/signed_url?method=PUT&image_name=photo-${index}.jpg`,
  )) as { url: string; imageName: string };
  const put = await fetch(url, {
    method: 'PUT',
    headers: { 'content-type': 'image/jpeg' },
    body: new Uint8Array(await jpegPhoto(1600, 1200)),
  });
  if (!put.ok) throw new Error(`upload: ${put.status}`);
  return imageName;
}

/** The member's own page made public, with a profile photo, an album and a timeline. */
async function seedPage(baseUrl: string, site: BenchSite): Promise<string> {
  const pageId = site.member.memorialPageId;
  await call(baseUrl, site, 'PATCH', `/v1/memorial_page/${pageId}`, {
    privacy: 'public',
    death_date: '2025-10-01',
    photo_name: await uploadPhoto(baseUrl, site, 0),
  });
  for (let index = 1; index <= PHOTOS; index += 1) {
    await call(baseUrl, site, 'POST', `/v1/album/memorial_page_id/${pageId}/album`, {
      image_name: await uploadPhoto(baseUrl, site, index),
      caption: `photo ${index}`,
    });
  }
  for (let index = 0; index < HISTORY_ENTRIES; index += 1) {
    await call(baseUrl, site, 'POST', `/v1/history/memorial_page_id/${pageId}/history`, {
      occurred_on: `${1960 + index * 10}-04-01`,
      body: 'history entry',
    });
  }
  return pageId;
}

export const memorialPageBench: BenchModule = {
  title: 'memorialPage',
  async run({ log }) {
    await ensureSpaBuild(log);
    const site = await createBenchSite();
    const server = await startServer({ DATABASE_URL: '', ...site.env }, PORT);
    const browser = await launchLighthouseChromium(DEBUGGING_PORT);
    const rows: BenchRow[] = [];
    try {
      const pageId = await seedPage(server.url, site);
      const path = `/memory/${pageId}`;
      const url = `${server.url}${path}`;
      // The figure of record: the slow link and the slowed CPU applied to the browser itself
      // (1.6 Mbit/s, 150 ms round trips, CPU 4× slower), as a visitor's phone lives them.
      const applied = await measureWithLighthouse(url, DEBUGGING_PORT, log, {
        flags: { throttlingMethod: 'devtools' },
      });
      // Lighthouse's default: the same profile simulated from a load at full speed.
      const simulated = await measureWithLighthouse(url, DEBUGGING_PORT, log);
      const landedRight = applied.landedPath === path && simulated.landedPath === path;
      const note = landedRight
        ? `${PHOTOS} photos, ${HISTORY_ENTRIES} entries; visitor not signed in; ${MEDIAN_NOTE}`
        : `ended on ${applied.landedPath} / ${simulated.landedPath}`;
      const within = (value: number | undefined, limit: number) =>
        value !== undefined && value <= limit && landedRight;
      const spread = (runs: number[]) =>
        runs.length === 0
          ? '-'
          : `runs ${Math.round(runs[0]!)}–${Math.round(runs[runs.length - 1]!)} ms`;
      rows.push(
        {
          name: 'LCP of /memory/{id}, throttling applied (mobile)',
          value: applied.lcpMs,
          unit: 'ms',
          target: `<= ${LCP_LIMIT_MS} ms`,
          met: within(applied.lcpMs, LCP_LIMIT_MS),
          note: `${spread(applied.lcpRunsMs)}; ${note}`,
        },
        {
          // The server's page is hydrated in place: it answers input once the app has run.
          name: '/memory/{id} time until hydrated, throttling applied (Lighthouse TTI, mobile)',
          value: applied.interactiveMs,
          unit: 'ms',
          target: `<= ${HYDRATED_LIMIT_MS} ms`,
          met: within(applied.interactiveMs, HYDRATED_LIMIT_MS),
          note,
        },
        {
          name: 'CLS of /memory/{id}, throttling applied (mobile)',
          value: applied.cls,
          unit: 'ratio',
          target: `<= ${CLS_LIMIT}`,
          met: within(applied.cls, CLS_LIMIT),
          note,
        },
        {
          // What the phone's main thread does before the page answers input, parsing and
          // running the scripts included: a visitor's page should spend it on their page alone.
          name: '/memory/{id} main-thread work while loading, throttling applied (mobile)',
          value: applied.mainThreadMs,
          unit: 'ms',
          note: `scripts' evaluation and parsing ${
            applied.scriptBootupMs === undefined ? '-' : Math.round(applied.scriptBootupMs)
          } ms of it (bootup-time); ${note}`,
        },
        {
          name: 'LCP of /memory/{id}, simulated (Lighthouse default, mobile)',
          value: simulated.lcpMs,
          unit: 'ms',
          note: `${spread(simulated.lcpRunsMs)}; ${note}`,
        },
        {
          name: '/memory/{id} time until hydrated, simulated (Lighthouse TTI, mobile)',
          value: simulated.interactiveMs,
          unit: 'ms',
          note,
        },
        {
          name: '/memory/{id} performance score, simulated (mobile)',
          value: simulated.score,
          unit: 'score',
          note,
        },
      );
    } finally {
      await browser.close();
      await server.stop();
      await site.remove();
    }
    return rows;
  },
};
