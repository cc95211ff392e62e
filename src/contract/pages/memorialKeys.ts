/**
 * The query keys of the memorial-page reads. Plain data with no import: the server names the
 * same keys when it puts a public page's answers into the page it serves to a visitor
 * (server/pages/visitorPages.ts), and the client seeds its cache under them.
 */
export const memorialKeys = {
  page: (id: string) => ['memorial', id, 'page'] as const,
  album: (id: string) => ['memorial', id, 'album'] as const,
  histories: (id: string) => ['memorial', id, 'histories'] as const,
  admins: (id: string) => ['memorial', id, 'admins'] as const,
  condolences: (id: string) => ['memorial', id, 'condolences'] as const,
};
