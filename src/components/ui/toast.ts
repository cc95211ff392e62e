/**
 * Toasts (bottom-right, closing after 3000 ms, above everything). react-toastify is
 * loaded on the first toast, so that it stays out of the entry bundle.
 */
export type ToastKind = 'success' | 'error' | 'info';

export function showToast(message: string, kind: ToastKind = 'info'): Promise<void> {
  return import('./ToastHost').then(({ showToastNow }) => showToastNow(message, kind));
}
