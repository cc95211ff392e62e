export interface ScreenRoute {
  path: string;
  screen: string;
  /**
   * Only for a signed-in member: a visitor (no session) is sent to /login, by the server when
   * the request carries no session cookie and by the client when its first session answer is
   * "not signed in" (`src/screens/memberOnly.ts`). Routes a visitor may see in some cases
   * (public memorial pages, a letter's claim link, the invitation) are not marked.
   */
  memberOnly?: true;
}

/**
 * Every route of the spec and the screen that draws it (`src/screens/<screen>.tsx`, a module
 * exporting `Component`). Plain data, with no import, because two sides read it: the router
 * (`router.tsx`), which loads each screen lazily, and the build (`vite.config.ts`), which
 * writes each route's screen chunks into `route-preloads.json` so that the server can name
 * them in the page it serves (server/routes/spa.ts). One route per line.
 */
export const screenRoutes: readonly ScreenRoute[] = [
  { path: '/', screen: 'home/HomeScreen' },
  { path: '/login', screen: 'login/LoginScreen' },
  { path: '/logout', screen: 'login/LogoutScreen' },
  { path: '/register-top', screen: 'registerTop/RegisterTopScreen' },
  { path: '/activate', screen: 'activate/ActivateScreen' },
  { path: '/password-reset', screen: 'passwordReset/PasswordResetScreen' },
  { path: '/dashboard', screen: 'dashboard/DashboardScreen', memberOnly: true },
  { path: '/mourning', screen: 'mourning/MourningScreen', memberOnly: true },
  { path: '/memory/:id/mourning', screen: 'memory/MourningScreen' },
  { path: '/memory/top/me', screen: 'memory/MemoryTopScreen' },
  { path: '/memory/new', screen: 'memory/MemoryNewScreen' },
  { path: '/memory/invitation', screen: 'memory/InvitationScreen' },
  { path: '/memory/:memorialPageId', screen: 'memory/MemoryScreen' },
  { path: '/endingnote/:userId', screen: 'endingnote/EndingNoteScreen', memberOnly: true },
  { path: '/timecapsule', screen: 'timecapsule/TimecapsuleStartScreen' },
  { path: '/timecapsule/list', screen: 'timecapsule/TimecapsuleListScreen', memberOnly: true },
  { path: '/timecapsule/new', screen: 'timecapsule/ComposeScreen', memberOnly: true },
  { path: '/timecapsule/letters/:letterId', screen: 'timecapsule/LetterScreen', memberOnly: true },
  { path: '/timecapsule/edit/:letterId', screen: 'timecapsule/ComposeScreen', memberOnly: true },
  { path: '/timecapsule/claim', screen: 'timecapsule/LetterClaimScreen' },
  { path: '/connection', screen: 'connection/ConnectionScreen', memberOnly: true },
  { path: '/user-search', screen: 'userSearch/UserSearchScreen' },
  { path: '/mypage', screen: 'mypage/MyPageScreen', memberOnly: true },
  { path: '/mypage/email-confirm', screen: 'mypage/EmailConfirmScreen' },
  { path: '/mypage/change-report', screen: 'mypage/ChangeReportScreen' },
  { path: '/notification/list', screen: 'notification/NotificationListScreen', memberOnly: true },
  { path: '/death-confirmation', screen: 'deathConfirmation/DeathConfirmationScreen' },
  {
    path: '/identity-verification',
    screen: 'identityVerification/IdentityVerificationScreen',
    memberOnly: true,
  },
  { path: '*', screen: 'notFound/NotFoundScreen' },
];
