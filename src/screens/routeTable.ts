/**
 * Every route of the spec and the screen that draws it (`src/screens/<screen>.tsx`, a module
 * exporting `Component`). Plain data, with no import, because two sides read it: the router
 * (`router.tsx`), which loads each screen lazily, and the build (`vite.config.ts`), which
 * writes each route's screen chunks into `route-preloads.json` so that the server can name
 * them in the page it serves (server/routes/spa.ts). One route per line.
 */
export const screenRoutes: readonly { path: string; screen: string }[] = [
  { path: '/', screen: 'home/HomeScreen' },
  { path: '/login', screen: 'login/LoginScreen' },
  { path: '/logout', screen: 'login/LogoutScreen' },
  { path: '/register-top', screen: 'registerTop/RegisterTopScreen' },
  { path: '/activate', screen: 'activate/ActivateScreen' },
  { path: '/password-reset', screen: 'passwordReset/PasswordResetScreen' },
  { path: '/dashboard', screen: 'dashboard/DashboardScreen' },
  { path: '/mourning', screen: 'mourning/MourningScreen' },
  { path: '/memory/:id/mourning', screen: 'memory/MourningScreen' },
  { path: '/memory/top/me', screen: 'memory/MemoryTopScreen' },
  { path: '/memory/new', screen: 'memory/MemoryNewScreen' },
  { path: '/memory/invitation', screen: 'memory/InvitationScreen' },
  { path: '/memory/:memorialPageId', screen: 'memory/MemoryScreen' },
  { path: '/endingnote/:userId', screen: 'endingnote/EndingNoteScreen' },
  { path: '/timecapsule', screen: 'timecapsule/TimecapsuleStartScreen' },
  { path: '/timecapsule/list', screen: 'timecapsule/TimecapsuleListScreen' },
  { path: '/timecapsule/new', screen: 'timecapsule/ComposeScreen' },
  { path: '/timecapsule/letters/:letterId', screen: 'timecapsule/LetterScreen' },
  { path: '/timecapsule/edit/:letterId', screen: 'timecapsule/ComposeScreen' },
  { path: '/timecapsule/claim', screen: 'timecapsule/LetterClaimScreen' },
  { path: '/connection', screen: 'connection/ConnectionScreen' },
  { path: '/user-search', screen: 'userSearch/UserSearchScreen' },
  { path: '/mypage', screen: 'mypage/MyPageScreen' },
  { path: '/mypage/email-confirm', screen: 'mypage/EmailConfirmScreen' },
  { path: '/notification/list', screen: 'notification/NotificationListScreen' },
  { path: '/death-confirmation', screen: 'deathConfirmation/DeathConfirmationScreen' },
  { path: '/identity-verification', screen: 'identityVerification/IdentityVerificationScreen' },
  { path: '*', screen: 'notFound/NotFoundScreen' },
];
