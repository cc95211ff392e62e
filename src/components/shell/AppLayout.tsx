import { useMemo } from 'react';
import { Outlet } from 'react-router';
import { useSession } from '../../services/session/useSession';
import { ApiStatusError, type ApiGet } from '../ui/apiGet';
import { ShellChromeProvider } from './chrome';
import { ShellFrame } from './ShellFrame';

/** A GET of the product API with the session's bearer token. */
function bearerApiGet(accessToken: () => string | undefined): ApiGet {
  return async (path) => {
    const token = accessToken();
    const response = await fetch(path, {
      headers: {
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
    if (!response.ok) throw new ApiStatusError(response.status, path);
    return response.json();
  };
}

/** The layout route: every screen renders inside the app frame. */
export function AppLayout() {
  const session = useSession();
  const { accessToken } = session;
  const apiGet = useMemo(() => bearerApiGet(accessToken), [accessToken]);
  return (
    <ShellChromeProvider>
      <ShellFrame session={session} apiGet={apiGet}>
        <Outlet />
      </ShellFrame>
    </ShellChromeProvider>
  );
}
