// On a page that carries the prerendered first paint (server/routes/spa.ts), the app's code is
// fetched and run only once the browser has drawn that paint: code that arrived first would
// otherwise be compiled and run before the first frame and hold it back. A hidden tab draws no
// frames, and a browser without paint timing cannot say when it drew: both start at once.
{
  const { entry = '', preloads = '' } = document.currentScript?.dataset ?? {};
  const start = () => {
    for (const href of preloads.split(' ').filter(Boolean)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    document.head.append(script);
  };
  // The first contentful paint is reported once that frame is on screen; a frame callback
  // alone runs before the frame is drawn, and code asked for then still competed with it.
  const supportsPaintTiming = PerformanceObserver.supportedEntryTypes?.includes('paint');
  if (document.visibilityState !== 'visible' || !supportsPaintTiming) {
    start();
  } else {
    const painted = new PerformanceObserver((entries) => {
      if (!entries.getEntriesByName('first-contentful-paint').length) return;
      painted.disconnect();
      start();
    });
    painted.observe({ type: 'paint', buffered: true });
  }
}
