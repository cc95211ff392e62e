import { Outlet } from 'react-router';
import { isHttpError, loadHttp } from '../../services/http/lazy';
import { useSession } from '../../services/session/useSession';
import { ApiStatusError, type ApiGet } from '../ui/apiGet';
import { ShellChromeProvider } from './chrome';
import { ShellFrame } from './ShellFrame';

/**
 * A GET of the product API through the app's HTTP client (bearer token, one refresh on a
 * 401, camelCase answers); a refused call becomes an ApiStatusError with its status. The
 * client (axios) loads with the first call, after the first render: a visitor's first paint
 * makes none, and a member page carries its first reads.
 */
const httpApiGet: ApiGet = async (path) => {
  const http = await loadHttp();
  try {
    return (await http.get<unknown>(path)).data;
  } catch (error) {
    if (isHttpError(error) && error.response) {
      throw new ApiStatusError(error.response.status, path);
    }
    throw error;
  }
};

/** The layout route: every screen renders inside the app frame. */
export function AppLayout() {
  const session = useSession();
  return (
    <ShellChromeProvider>
      <ShellFrame session={session} apiGet={httpApiGet}>
        <Outlet />
      </ShellFrame>
    </ShellChromeProvider>
  );
}
