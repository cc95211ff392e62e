import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from '../components/shell/AppLayout';
import { RouteLoading } from '../components/shell/RouteLoading';

/**
 * Every route of the spec, each a lazy screen so that the entry bundle stays small, inside
 * the app frame (header, menus, footer). A screen module exports `Component`. One route
 * per line.
 */
export const routes: RouteObject[] = [
  {
    Component: AppLayout,
    HydrateFallback: RouteLoading,
    children: [
      { path: '/', lazy: () => import('./home/HomeScreen') },
      { path: '/login', lazy: () => import('./login/LoginScreen') },
      { path: '/logout', lazy: () => import('./login/LogoutScreen') },
      { path: '/register-top', lazy: () => import('./registerTop/RegisterTopScreen') },
      { path: '/activate', lazy: () => import('./activate/ActivateScreen') },
      { path: '/password-reset', lazy: () => import('./passwordReset/PasswordResetScreen') },
      { path: '/dashboard', lazy: () => import('./dashboard/DashboardScreen') },
      { path: '/mourning', lazy: () => import('./mourning/MourningScreen') },
      { path: '/memory/:id/mourning', lazy: () => import('./memory/MourningScreen') },
      { path: '/memory/top/me', lazy: () => import('./memory/MemoryTopScreen') },
      { path: '/memory/new', lazy: () => import('./memory/MemoryNewScreen') },
      { path: '/memory/invitation', lazy: () => import('./memory/InvitationScreen') },
      { path: '/memory/:memorialPageId', lazy: () => import('./memory/MemoryScreen') },
      { path: '/endingnote/:userId', lazy: () => import('./endingnote/EndingNoteScreen') },
      { path: '/timecapsule', lazy: () => import('./timecapsule/TimecapsuleStartScreen') },
      { path: '/timecapsule/list', lazy: () => import('./timecapsule/TimecapsuleListScreen') },
      { path: '/timecapsule/new', lazy: () => import('./timecapsule/ComposeScreen') },
      { path: '/timecapsule/letters/:letterId', lazy: () => import('./timecapsule/LetterScreen') },
      { path: '/timecapsule/edit/:letterId', lazy: () => import('./timecapsule/ComposeScreen') },
      { path: '/timecapsule/claim', lazy: () => import('./timecapsule/LetterClaimScreen') },
      { path: '/connection', lazy: () => import('./connection/ConnectionScreen') },
      { path: '/user-search', lazy: () => import('./userSearch/UserSearchScreen') },
      { path: '/mypage', lazy: () => import('./mypage/MyPageScreen') },
      { path: '/mypage/email-confirm', lazy: () => import('./mypage/EmailConfirmScreen') },
      { path: '/notification/list', lazy: () => import('./notification/NotificationListScreen') },
      {
        path: '/death-confirmation',
        lazy: () => import('./deathConfirmation/DeathConfirmationScreen'),
      },
      {
        path: '/identity-verification',
        lazy: () => import('./identityVerification/IdentityVerificationScreen'),
      },
      { path: '*', lazy: () => import('./notFound/NotFoundScreen') },
    ],
  },
];

export const router = createBrowserRouter(routes);
