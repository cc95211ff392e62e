import { createContext, useContext, useEffect } from 'react';
import { useT } from '../../i18n/useT';

/** Given by the server's render (src/entry-server.tsx): hears the title of the page it draws. */
export const DocumentTitleContext = createContext<((title: string) => void) | undefined>(undefined);

/**
 * The document's title while the component is shown; the one rendered last wins, so a screen
 * that names its page (the person's name) overrides its route's title rendered before it.
 */
export function useDocumentTitle(title: string | undefined): void {
  const hear = useContext(DocumentTitleContext);
  if (title !== undefined) hear?.(title);
  useEffect(() => {
    if (title !== undefined) document.title = title;
  }, [title]);
}

/** `page` (a Fluent message's text) followed by the site's name, as every title reads. */
export function useSiteTitle(page: string | undefined): string | undefined {
  const t = useT();
  return page === undefined ? undefined : t('page-title', { page });
}

/** The title of a route of routeTable.ts: its Fluent message `titleId`. */
export function RouteTitle({ titleId }: { titleId: string }) {
  const t = useT();
  useDocumentTitle(useSiteTitle(t(titleId)));
  return null;
}
