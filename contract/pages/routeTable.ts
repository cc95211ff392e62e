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
  /** The Fluent message naming the page in its title (`page-title` adds the site's name). */
  title: string;
}

/**
 * Every route of the app and the screen that draws it (`src/screens/<screen>.tsx`, a module
 * exporting `Component`) and names it in its title. Plain data, with no import, because two
 * sides read it: the router (`routes.tsx`), which loads each screen lazily, and the server
 * (server/pages/clientRoutes.ts), which matches a page's path as the router will.
 */
export const screenRoutes: readonly ScreenRoute[] = [
  { path: '/', screen: 'home/HomeScreen', title: 'page-title-home' },
  { path: '/login', screen: 'login/LoginScreen', title: 'page-title-login' },
  { path: '/logout', screen: 'login/LogoutScreen', title: 'page-title-logout' },
  {
    path: '/register-top',
    screen: 'registerTop/RegisterTopScreen',
    title: 'page-title-register-top',
  },
  { path: '/activate', screen: 'activate/ActivateScreen', title: 'page-title-activate' },
  {
    path: '/password-reset',
    screen: 'passwordReset/PasswordResetScreen',
    title: 'page-title-password-reset',
  },
  {
    path: '/restore-account',
    screen: 'accountRestoration/AccountRestorationScreen',
    title: 'page-title-restore-account',
  },
  {
    path: '/dashboard',
    screen: 'dashboard/DashboardScreen',
    title: 'page-title-dashboard',
    memberOnly: true,
  },
  {
    path: '/mourning',
    screen: 'mourning/MourningScreen',
    title: 'page-title-mourning',
    memberOnly: true,
  },
  {
    path: '/memory/:id/mourning',
    screen: 'memory/MemoryMourningScreen',
    title: 'page-title-memory-mourning',
  },
  { path: '/memory/top/me', screen: 'memory/MemoryTopScreen', title: 'page-title-memory-top' },
  { path: '/memory/new', screen: 'memory/MemoryNewScreen', title: 'page-title-memory-new' },
  {
    path: '/memory/invitation',
    screen: 'memory/InvitationScreen',
    title: 'page-title-memory-invitation',
  },
  { path: '/memory/:memorialPageId', screen: 'memory/MemoryScreen', title: 'page-title-memory' },
  {
    path: '/endingnote/:userId',
    screen: 'endingnote/EndingNoteScreen',
    title: 'page-title-endingnote',
    memberOnly: true,
  },
  {
    path: '/timecapsule',
    screen: 'timecapsule/TimecapsuleStartScreen',
    title: 'page-title-timecapsule',
  },
  {
    path: '/timecapsule/list',
    screen: 'timecapsule/TimecapsuleListScreen',
    title: 'page-title-timecapsule-list',
    memberOnly: true,
  },
  {
    path: '/timecapsule/new',
    screen: 'timecapsule/ComposeScreen',
    title: 'page-title-timecapsule-new',
    memberOnly: true,
  },
  {
    path: '/timecapsule/letters/:letterId',
    screen: 'timecapsule/LetterScreen',
    title: 'page-title-timecapsule-letter',
    memberOnly: true,
  },
  {
    path: '/timecapsule/edit/:letterId',
    screen: 'timecapsule/ComposeScreen',
    title: 'page-title-timecapsule-edit',
    memberOnly: true,
  },
  {
    path: '/timecapsule/claim',
    screen: 'timecapsule/LetterClaimScreen',
    title: 'page-title-timecapsule-claim',
  },
  {
    path: '/connection',
    screen: 'connection/ConnectionScreen',
    title: 'page-title-connection',
    memberOnly: true,
  },
  { path: '/user-search', screen: 'userSearch/UserSearchScreen', title: 'page-title-user-search' },
  { path: '/mypage', screen: 'mypage/MyPageScreen', title: 'page-title-mypage', memberOnly: true },
  {
    path: '/mypage/visibility',
    screen: 'mypage/VisibilityScreen',
    title: 'page-title-visibility',
    memberOnly: true,
  },
  {
    path: '/mypage/change-report',
    screen: 'mypage/ChangeReportScreen',
    title: 'page-title-change-report',
  },
  {
    path: '/mypage/email-confirm',
    screen: 'mypage/EmailConfirmScreen',
    title: 'page-title-email-confirm',
  },
  {
    path: '/notification/list',
    screen: 'notification/NotificationListScreen',
    title: 'page-title-notification-list',
    memberOnly: true,
  },
  {
    path: '/death-confirmation',
    screen: 'deathConfirmation/DeathConfirmationScreen',
    title: 'page-title-death-confirmation',
  },
  {
    path: '/identity-verification',
    screen: 'identityVerification/IdentityVerificationScreen',
    title: 'page-title-identity-verification',
    memberOnly: true,
  },
  {
    path: '/death-settings',
    screen: 'deathAdministration/DeathSettingsScreen',
    title: 'page-title-death-settings',
    memberOnly: true,
  },
  {
    path: '/death-administration',
    screen: 'deathAdministration/DeathAdministrationScreen',
    title: 'page-title-death-administration',
    memberOnly: true,
  },
  {
    path: '/death-administration/:userId',
    screen: 'deathAdministration/DeathCaseScreen',
    title: 'page-title-death-case',
    memberOnly: true,
  },
  {
    path: '/integration/link',
    screen: 'integration/IntegrationLinkScreen',
    title: 'page-title-integration-link',
    memberOnly: true,
  },
  { path: '*', screen: 'notFound/NotFoundScreen', title: 'page-title-not-found' },
];
