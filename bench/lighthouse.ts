import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/support/browser';
import { ensureSpaBuild } from '../server/build';
import { BENCH_PORTS, createBenchSite, startServer } from './server';
import type { BenchModule, BenchRow } from './types';

const PAGES = ['/login', '/dashboard'];
const SCORE_TARGET = 95;
const LCP_LIMIT_MS = 1500;
const DEBUGGING_PORT = 4249;

export interface LighthouseFigures {
  score: number;
  lcpMs: number | undefined;
  fcpMs: number | undefined;
  /** Total Blocking Time and Cumulative Layout Shift. */
  tbtMs: number | undefined;
  cls: number | undefined;
  /** The path the page ended on (a redirect to /login shows here). */
  landedPath: string;
}

/** The system Chromium with a debugging port, for Lighthouse to drive. */
export function launchLighthouseChromium(debuggingPort: number) {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${debuggingPort}`],
  });
}

/** One Lighthouse run of `url` (default mobile profile, performance only) in that Chromium. */
export async function measureWithLighthouse(
  url: string,
  debuggingPort: number,
): Promise<LighthouseFigures> {
  const result = await lighthouse(url, {
    port: debuggingPort,
    onlyCategories: ['performance'],
    output: 'json',
    logLevel: 'error',
  });
  if (!result) throw new Error(`lighthouse gave no result for ${url}`);
  const { lhr } = result;
  return {
    score: (lhr.categories.performance?.score ?? 0) * 100,
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue,
    fcpMs: lhr.audits['first-contentful-paint']?.numericValue,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue,
    landedPath: new URL(lhr.finalDisplayedUrl).pathname,
  };
}

/**
 * Lighthouse's default profile (a mid-range phone on a slow 4G link, simulated) against the
 * production build, in the system Chromium: performance score and Largest Contentful Paint.
 * The pages load as a visitor who is not logged in.
 */
export const lighthouseBench: BenchModule = {
  title: 'lighthouse',
  async run({ log }) {
    await ensureSpaBuild(log);
    const site = await createBenchSite();
    const server = await startServer(site.env, BENCH_PORTS.lighthouse);
    const browser = await launchLighthouseChromium(DEBUGGING_PORT);
    const rows: BenchRow[] = [];
    try {
      for (const page of PAGES) {
        const {
          score,
          lcpMs: lcp,
          fcpMs,
          tbtMs,
          cls,
          landedPath: landed,
        } = await measureWithLighthouse(`${server.url}${page}`, DEBUGGING_PORT);
        log(
          `lighthouse ${page}: score ${score}, FCP ${fcpMs} ms, LCP ${lcp} ms, TBT ${tbtMs} ms, CLS ${cls}, ended on ${landed}`,
        );
        const note = landed === page ? undefined : `ended on ${landed}`;
        rows.push(
          {
            name: `${page} performance score (mobile)`,
            value: score,
            unit: 'score',
            target: `>= ${SCORE_TARGET}`,
            met: score >= SCORE_TARGET,
            note,
          },
          {
            name: `${page} LCP (mobile)`,
            value: lcp,
            unit: 'ms',
            target: `<= ${LCP_LIMIT_MS} ms`,
            met: lcp !== undefined && lcp <= LCP_LIMIT_MS,
            note,
          },
        );
      }
    } finally {
      await browser.close();
      await server.stop();
      await site.remove();
    }
    return rows;
  },
};
