import { Outlet } from 'react-router';
import { useSession } from '../../services/session/useSession';
import { ShellChromeProvider } from './chrome';
import { ShellFrame } from './ShellFrame';

/** The layout route: every screen renders inside the app frame. */
export function AppLayout() {
  const session = useSession();
  return (
    <ShellChromeProvider>
      <ShellFrame session={session}>
        <Outlet />
      </ShellFrame>
    </ShellChromeProvider>
  );
}
