import { createContext, useContext } from 'react';

/**
 * How UI pieces read member-only JSON (signed image URLs, counts) without knowing about
 * tokens: the app shell provides the authenticated reader of the session; without one a
 * plain same-origin request is made (which a member-only call answers with 401).
 */
export type ApiGet = (path: string) => Promise<unknown>;

export class ApiStatusError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
  ) {
    super(`GET ${path} answered ${status}`);
  }
}

export const anonymousApiGet: ApiGet = async (path) => {
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new ApiStatusError(response.status, path);
  return response.json();
};

const ApiGetContext = createContext<ApiGet>(anonymousApiGet);

export const ApiGetProvider = ApiGetContext.Provider;

export function useApiGet(): ApiGet {
  return useContext(ApiGetContext);
}
