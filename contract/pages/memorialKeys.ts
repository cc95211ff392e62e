/**
 * The query keys of the memorial-page reads. Plain data with no import: the server names the
 * same keys when it puts a public page's answers into the page it serves to a visitor
 * (server/pages/visitorPages.ts), and the client seeds its cache under them.
 */
export const memorialKeys = {
  page: (id: string) => ['memorial', id, 'page'] as const,
  album: (id: string) => ['memorial', id, 'album'] as const,
  histories: (id: string) => ['memorial', id, 'histories'] as const,
  /** The album and the history a page at a time, under the whole lists' keys (one invalidation). */
  albumPages: (id: string) => ['memorial', id, 'album', 'pages'] as const,
  historyPages: (id: string) => ['memorial', id, 'histories', 'pages'] as const,
  admins: (id: string) => ['memorial', id, 'admins'] as const,
  condolences: (id: string) => ['memorial', id, 'condolences'] as const,
};

/**
 * How many items a long list asks for at a time (album, history, letters): a phone's first
 * screen and a little more. The server's render asks the same, so the browser's next page
 * follows on from the one it was given.
 */
export const LIST_PAGE_SIZE = 12;
