import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { ToastContainer, toast } from 'react-toastify';
import { layers } from '../../theme/tokens';
import type { ToastKind } from './toast';

export const TOAST_AUTO_CLOSE_MS = 3000;

let mounted = false;

/** Mounts the one toast container in its own root at the end of <body>. */
function mountContainer(): void {
  if (mounted) return;
  mounted = true;
  const host = document.createElement('div');
  host.id = 'toast-root';
  document.body.append(host);
  flushSync(() =>
    createRoot(host).render(
      <ToastContainer
        position="bottom-right"
        autoClose={TOAST_AUTO_CLOSE_MS}
        style={{ zIndex: layers.toast }}
      />,
    ),
  );
}

export function showToastNow(message: string, kind: ToastKind): void {
  mountContainer();
  toast[kind](message);
}
