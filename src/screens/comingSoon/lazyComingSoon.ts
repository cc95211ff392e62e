/** `lazy` of a route whose screen is not built yet: the shared coming-soon screen, titled. */
export function comingSoon(screen: string) {
  return async () => {
    const { comingSoonScreen } = await import('./ComingSoonScreen');
    return { Component: comingSoonScreen(screen) };
  };
}
