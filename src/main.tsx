import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { createAppRouter, loadScreensOf } from './screens/router';
import { nextTask } from './services/nextTask';
import { handOverSnapshot, SNAPSHOT_MAX_MS } from './snapshot/handOver';
import { readThemeChoice, systemPrefersDark } from './theme/themeChoice';

// The server's first paint of /login is drawn in the light theme: with a dark one the app
// shows at once instead (as without a snapshot; the snapshot's styles hide it meanwhile when
// the system is dark), and a snapshot the app never replaced (a failed load) does not stay
// inert for good.
const choice = readThemeChoice();
if (choice === 'dark' || (choice === 'system' && systemPrefersDark())) {
  handOverSnapshot();
}
setTimeout(handOverSnapshot, SNAPSHOT_MAX_MS);

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
// Start-up is cut into short tasks, so that a tap or a frame never waits long behind it
// (docs/app-shell.md, "Start-up work"): the code's evaluation, React's root, the evaluation of
// the first screen's code, the router (which ranks every route and starts the first
// navigation), then the first render, as a transition that React slices.
async function start(container: HTMLElement) {
  await nextTask();
  const root = createRoot(container);
  await nextTask();
  await loadScreensOf(window.location.pathname);
  await nextTask();
  const router = createAppRouter();
  startTransition(() => {
    root.render(
      <StrictMode>
        <App router={router} />
      </StrictMode>,
    );
  });
}
void start(container);
