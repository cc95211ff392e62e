// On a page that carries the prerendered first paint (server/routes/spa.ts), the app's code is
// fetched and run only once the browser has drawn that paint: code that arrived first would
// otherwise be compiled and run before the first frame and hold it back. The server writes this
// script into the end of the page's body (its hash is in the page's Content-Security-Policy,
// server/routes/startAfterPaint.ts): a file of its own would cost a round trip before the
// app's code is even asked for. It starts at once
// where no such paint will be reported: a hidden tab draws no frames, a browser without paint
// timing cannot say when it drew, and on a dark system the snapshot (drawn light) is hidden,
// so nothing contentful is drawn before the app. A late report never holds the app back long.
{
  const LONGEST_WAIT_MS = 1500;
  const { entry = '', preloads = '' } = document.currentScript?.dataset ?? {};
  let started = false;
  // Each element added starts a request, about a millisecond of the thread each (more on a
  // phone): they go in a few per task, so that no one task of them is long. A hidden tab, whose
  // timers the browser slows to one a second, gets them all at once.
  const PER_TASK = 4;
  const start = () => {
    if (started) return;
    started = true;
    const elements = preloads
      .split(' ')
      .filter(Boolean)
      .map((href) => {
        const link = document.createElement('link');
        link.rel = 'modulepreload';
        link.crossOrigin = '';
        link.href = href;
        return link;
      });
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    elements.push(script);
    const perTask = document.visibilityState === 'visible' ? PER_TASK : elements.length;
    const addSome = () => {
      document.head.append(...elements.splice(0, perTask));
      if (elements.length > 0) setTimeout(addSome);
    };
    addSome();
  };
  const paintWillBeReported =
    document.visibilityState === 'visible' &&
    PerformanceObserver.supportedEntryTypes?.includes('paint') &&
    !matchMedia('(prefers-color-scheme: dark)').matches;
  // A page whose largest paint is an image asks for it with a preload of the highest priority
  // (a memorial page's photo): the code waits for that image to be drawn (or to fail) as well,
  // so that it does not compete with it for the link and the thread.
  const pendingImages = new Set();
  let contentfulPaint = false;
  const startWhenDrawn = () => {
    if (contentfulPaint && pendingImages.size === 0) start();
  };
  for (const link of document.querySelectorAll(
    'link[rel="preload"][as="image"][fetchpriority="high"]',
  )) {
    const image = [...document.images].find((candidate) => candidate.src === link.href);
    if (!image || image.complete) continue;
    pendingImages.add(image);
    // A timer set in a frame callback runs once that frame is drawn.
    const drawn = () =>
      requestAnimationFrame(() =>
        setTimeout(() => {
          pendingImages.delete(image);
          startWhenDrawn();
        }),
      );
    image.addEventListener('load', drawn, { once: true });
    image.addEventListener('error', drawn, { once: true });
  }
  if (!paintWillBeReported) {
    start();
  } else {
    // The first contentful paint is reported once that frame is on screen; a frame callback
    // alone runs before the frame is drawn, and code asked for then still competed with it.
    const painted = new PerformanceObserver((entries) => {
      if (!entries.getEntriesByName('first-contentful-paint').length) return;
      painted.disconnect();
      contentfulPaint = true;
      startWhenDrawn();
    });
    painted.observe({ type: 'paint', buffered: true });
    setTimeout(start, LONGEST_WAIT_MS);
  }
}
