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
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: [...CHROMIUM_ARGS, `--remote-debugging-port=${DEBUGGING_PORT}`],
    });
    const rows: BenchRow[] = [];
    try {
      for (const page of PAGES) {
        const result = await lighthouse(`${server.url}${page}`, {
          port: DEBUGGING_PORT,
          onlyCategories: ['performance'],
          output: 'json',
          logLevel: 'error',
        });
        if (!result) throw new Error(`lighthouse gave no result for ${page}`);
        const { lhr } = result;
        const score = (lhr.categories.performance?.score ?? 0) * 100;
        const lcp = lhr.audits['largest-contentful-paint']?.numericValue;
        log(
          `lighthouse ${page}: score ${score}, LCP ${lcp} ms, final URL ${lhr.finalDisplayedUrl}`,
        );
        const landed = new URL(lhr.finalDisplayedUrl).pathname;
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
