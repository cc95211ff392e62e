import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { handOverSnapshot, SNAPSHOT_MAX_MS } from './snapshot/handOver';
import { SNAPSHOT_ID } from './snapshot/snapshotIds';
import { DARK_QUERY, readThemeChoice } from './theme/themeChoice';

// The server's first paint of /login is drawn in the light theme: with a dark one the app
// shows at once instead (as without a snapshot; the snapshot's styles hide it meanwhile when
// the system is dark), and a snapshot the app never replaced (a failed load) does not stay
// inert for good.
const choice = readThemeChoice();
if (choice === 'dark' || (choice === 'system' && matchMedia(DARK_QUERY).matches)) {
  handOverSnapshot();
}
setTimeout(handOverSnapshot, SNAPSHOT_MAX_MS);

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
const start = () =>
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
// With a snapshot on the page, the app starts once the browser has painted it (a timer set in
// the frame's callback runs after that frame), so that building the app never holds back the
// first paint, even when the code arrives before the page is drawn. A hidden tab draws no
// frames: there it starts at once.
if (document.getElementById(SNAPSHOT_ID) && document.visibilityState === 'visible') {
  requestAnimationFrame(() => setTimeout(start, 0));
} else {
  start();
}
