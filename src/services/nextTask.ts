/**
 * Resolves in a later task of the event loop, so that what waits (a tap, a frame) runs before
 * the work that follows: start-up work cut this way never makes one long task
 * (docs/app-shell.md, "Start-up work").
 */
export const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
