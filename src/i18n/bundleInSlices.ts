import { FluentResource, type FluentBundle } from '@fluent/bundle';
import { nextTask } from '../services/nextTask';

/**
 * Where a message or term begins: the same pattern Fluent's runtime parser scans for
 * (@fluent/bundle's resource.js), so a cut there never splits an entry.
 */
const ENTRY_START = /^-?[a-zA-Z][\w-]* *= */;

/** About 4 KB of translations per slice: a few milliseconds of parsing on a slow phone. */
export const SLICE_CHARS = 4096;

/** `text` cut before entry starts into pieces of about `sliceChars` each, in order. */
export function entrySlices(text: string, sliceChars = SLICE_CHARS): string[] {
  const slices: string[] = [];
  let current: string[] = [];
  let length = 0;
  for (const line of text.split('\n')) {
    if (length >= sliceChars && ENTRY_START.test(line)) {
      slices.push(current.join('\n'));
      current = [];
      length = 0;
    }
    current.push(line);
    length += line.length + 1;
  }
  slices.push(current.join('\n'));
  return slices;
}

/**
 * The bundle of `text`, parsed a slice per task. Parsed at once, the whole file held the main
 * thread for one long task while the app started (docs/app-shell.md, "Start-up work").
 */
export async function bundleInSlices(
  text: string,
  bundle: FluentBundle,
  sliceChars = SLICE_CHARS,
): Promise<FluentBundle> {
  for (const slice of entrySlices(text, sliceChars)) {
    await nextTask();
    for (const error of bundle.addResource(new FluentResource(slice))) {
      console.error('translation error', error);
    }
  }
  return bundle;
}
