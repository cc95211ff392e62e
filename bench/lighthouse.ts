import lighthouse from 'lighthouse';
import { computeMedianRun, filterToValidRuns } from 'lighthouse/core/lib/median-run.js';
import type { Result } from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/support/browser';
import { ensureSpaBuild } from '../server/pages/build';
import { BENCH_PORTS, createBenchSite, startServer } from './server';
import type { BenchModule, BenchRow } from './types';

/** The pages a visitor opens cold; LCP within Core Web Vitals' "good", the score reported. */
const PAGES = ['/login', '/'];
const LCP_LIMIT_MS = 2500;
const DEBUGGING_PORT = 4249;

export interface LighthouseFigures {
  score: number;
  lcpMs: number | undefined;
  fcpMs: number | undefined;
  /** Total Blocking Time and Cumulative Layout Shift. */
  tbtMs: number | undefined;
  cls: number | undefined;
  interactiveMs: number | undefined;
  /** The main thread's work while loading (all tasks), and the scripts' share of it. */
  mainThreadMs: number | undefined;
  scriptBootupMs: number | undefined;
  /** The path the page ended on (a redirect to /login shows here). */
  landedPath: string;
  /** Every run's LCP, smallest first: the spread of the runs the median was taken from. */
  lcpRunsMs: number[];
}

/** The system Chromium with a debugging port, for Lighthouse to drive. */
export function launchLighthouseChromium(debuggingPort: number) {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${debuggingPort}`],
  });
}

/** How many times each page is measured; the figures are those of the median run. */
export const LIGHTHOUSE_RUNS = 5;

interface MeasureOptions {
  flags?: Parameters<typeof lighthouse>[1];
  /** Runs before each Lighthouse run (a page signed in keeps its cookie and clears its cache). */
  beforeEachRun?: () => Promise<void>;
}

function figuresOf(lhr: Result): Omit<LighthouseFigures, 'lcpRunsMs'> {
  return {
    score: (lhr.categories.performance?.score ?? 0) * 100,
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue,
    fcpMs: lhr.audits['first-contentful-paint']?.numericValue,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue,
    interactiveMs: lhr.audits.interactive?.numericValue,
    mainThreadMs: lhr.audits['mainthread-work-breakdown']?.numericValue,
    scriptBootupMs: lhr.audits['bootup-time']?.numericValue,
    landedPath: new URL(lhr.finalDisplayedUrl).pathname,
  };
}

/**
 * Lighthouse runs of `url` (default mobile profile, performance only) in that Chromium, and
 * the run Lighthouse's own tooling calls the median: the one nearest the median first
 * contentful paint and time to interactive (`computeMedianRun`). One run on a shared machine
 * spreads by several points of score (a task stretched by another process counts as
 * blocking), which is why Lighthouse's guidance on variability is to report the median of
 * several. A run that lost its trace (NO_NAVSTART on a loaded machine) has no figures and is
 * left out; every run is logged.
 */
export async function measureWithLighthouse(
  url: string,
  debuggingPort: number,
  log: (line: string) => void,
  { flags = {}, beforeEachRun }: MeasureOptions = {},
): Promise<LighthouseFigures> {
  const runs: Result[] = [];
  for (let run = 0; run < LIGHTHOUSE_RUNS; run++) {
    await beforeEachRun?.();
    const result = await lighthouse(url, {
      port: debuggingPort,
      onlyCategories: ['performance'],
      output: 'json',
      logLevel: 'error',
      ...flags,
    });
    if (!result) throw new Error(`lighthouse gave no result for ${url}`);
    const { score, fcpMs, lcpMs, tbtMs, interactiveMs } = figuresOf(result.lhr);
    log(
      `lighthouse ${new URL(url).pathname} run ${run + 1}: score ${score}, FCP ${round(fcpMs)}, LCP ${round(lcpMs)}, TBT ${round(tbtMs)}, TTI ${round(interactiveMs)} ms`,
    );
    runs.push(result.lhr);
  }
  const valid = filterToValidRuns(runs);
  if (valid.length === 0) throw new Error(`no Lighthouse run of ${url} kept its trace`);
  const lcpRunsMs = valid
    .map((lhr) => figuresOf(lhr).lcpMs)
    .filter((lcp): lcp is number => lcp !== undefined)
    .sort((a, b) => a - b);
  return { ...figuresOf(computeMedianRun(valid)), lcpRunsMs };
}

const round = (value: number | undefined) => (value === undefined ? '-' : Math.round(value));

/** The note of a row whose figure is that of the median run. */
export const MEDIAN_NOTE = `median of ${LIGHTHOUSE_RUNS} runs`;

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
        } = await measureWithLighthouse(`${server.url}${page}`, DEBUGGING_PORT, log);
        log(
          `lighthouse ${page}, median run: score ${score}, FCP ${round(fcpMs)} ms, LCP ${round(lcp)} ms, TBT ${round(tbtMs)} ms, CLS ${cls}, ended on ${landed}`,
        );
        const note = [MEDIAN_NOTE, landed === page ? undefined : `ended on ${landed}`]
          .filter(Boolean)
          .join('; ');
        rows.push(
          {
            name: `${page} performance score (mobile)`,
            value: score,
            unit: 'score',
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
