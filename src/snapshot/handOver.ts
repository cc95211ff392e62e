/**
 * The hand-over from the server's prerendered first paint of /login (the "snapshot",
 * docs/app-shell.md) to the app. The page then holds the snapshot in an inert element of its
 * own (`SNAPSHOT_ID`) with its styles (`SNAPSHOT_STYLE_ID`, not marked `data-styled`, so the
 * client's styled-components leaves them alone), and `#root` hidden. The app renders into
 * `#root` as always (no hydration: the class names differ), and once its screen has committed,
 * before that frame is painted, the snapshot and its styles go and `#root` shows.
 */
import { useLayoutEffect } from 'react';
import { APP_ROOT_ID, SNAPSHOT_ID, SNAPSHOT_STYLE_ID } from './snapshotIds';

export { SNAPSHOT_MAX_MS } from './snapshotIds';

/** Removes the snapshot, if the page has one, and shows the app. Safe to call again. */
export function handOverSnapshot(doc: Document = document): void {
  const snapshot = doc.getElementById(SNAPSHOT_ID);
  if (!snapshot) return;
  snapshot.remove();
  doc.getElementById(SNAPSHOT_STYLE_ID)?.remove();
  doc.getElementById(APP_ROOT_ID)?.removeAttribute('hidden');
}

/** Hands over in the layout effect of the commit in which `ready` is first true. */
export function useSnapshotHandOver(ready: boolean): void {
  useLayoutEffect(() => {
    if (ready) handOverSnapshot();
  }, [ready]);
}
