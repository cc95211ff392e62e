import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  createSnapshotRenderer,
  MemberRender,
  SeededAnswer,
  Snapshot,
  SnapshotRenderer,
} from '../../src/snapshot/prerender';
import { tokyoYear } from '../../src/validation/tokyoDate';
import { projectRoot, SNAPSHOT_RENDERER_FILE } from '../paths';

export type {
  MemberRender,
  SeededAnswer,
  Snapshot,
  SnapshotRenderer,
} from '../../src/snapshot/prerender';

/** A made-up page drawn once when the renderer loads (`loadPageRenderer`). */
export interface WarmUp {
  url: string;
  answers: SeededAnswer[];
  member?: MemberRender;
}

/** How many rendered pages are kept (a page is some 30 KB of markup and styles). */
export const KEPT_RENDERS = 200;

/**
 * `render` with its results kept: the markup is a function of the URL, the answers, the member
 * it is drawn for (their session's user and their page's answers) and the year in Japan (the
 * footer's copyright line) alone, and the answers of an unchanged page are the same text for minutes (the signed URLs in them
 * are reused, storage/viewUrls.ts), so a page read again in that time is not rendered again
 * (a render takes some 5-20 ms of the one thread; hashing its input, a few microseconds). A
 * change of anything the page shows changes the answers, and so the key. The least recently
 * used leave first past `capacity`.
 */
export function keepingRenders(
  render: SnapshotRenderer,
  capacity: number = KEPT_RENDERS,
  now: () => Date = () => new Date(),
): SnapshotRenderer {
  const kept = new Map<string, Promise<Snapshot>>();
  return (url, answers = [], member) => {
    const key = createHash('sha256')
      .update(String(tokyoYear(now())))
      .update('\n')
      .update(url)
      .update('\n')
      .update(JSON.stringify(answers))
      .update('\n')
      .update(JSON.stringify(member ?? null))
      .digest('base64');
    const found = kept.get(key);
    if (found) {
      kept.delete(key);
      kept.set(key, found);
      return found;
    }
    const made = render(url, answers, member);
    kept.set(key, made);
    // A failed render is not kept: the next request tries again.
    made.catch(() => kept.delete(key));
    if (kept.size > capacity) kept.delete(kept.keys().next().value!);
    return made;
  };
}

/**
 * The build's server bundle of src/snapshot/prerender.tsx (vite.config.ts, plugin
 * `shinobu-snapshot`), with the app's translations; undefined when the
 * build has none (a build made before it existed, the test builds of the served pages).
 */
export async function loadPageRenderer(
  root: string,
  warmUps: readonly WarmUp[] = [],
): Promise<SnapshotRenderer | undefined> {
  const file = path.join(root, SNAPSHOT_RENDERER_FILE);
  if (!existsSync(file)) return undefined;
  const prerender = (await import(pathToFileURL(file).href)) as {
    createSnapshotRenderer: typeof createSnapshotRenderer;
  };
  const translations = readFileSync(path.join(projectRoot, 'src/i18n/ja/translation.ftl'), 'utf8');
  const render = await prerender.createSnapshotRenderer(translations);
  // One render of a made-up page per screen drawn while nobody waits: the first render of a
  // screen (its code loaded and run for the first time) takes some 200-500 ms, later ones a few.
  for (const { url, answers, member } of warmUps) await render(url, answers, member);
  return render;
}

/**
 * `load` run once, on the first call, its renders kept (keepingRenders): the bundle takes some
 * 150 ms to import and set up, which a process pays when it is first needed (or right after it
 * listens), not before it can answer. A bundle that fails to load is logged and the pages go
 * without a first paint.
 */
export function rendererOnce(
  load: () => Promise<SnapshotRenderer | undefined>,
  log: { error: (details: object, message: string) => void },
): () => Promise<SnapshotRenderer | undefined> {
  let loading: Promise<SnapshotRenderer | undefined> | undefined;
  return () =>
    (loading ??= load().then(
      (render) => render && keepingRenders(render),
      (error: unknown) => {
        log.error({ err: error }, 'the snapshot renderer did not load');
        return undefined;
      },
    ));
}
