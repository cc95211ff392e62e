import { lazy } from 'react';

// What only a signed-in member sees and reads through TanStack Query (`memberParts.tsx`):
// loaded once a member is shown, so that a visitor's first paint carries neither.
export const UnreadCountPoller = lazy(() =>
  import('./memberParts').then((module) => ({ default: module.UnreadCountPoller })),
);
export const MemberAvatar = lazy(() =>
  import('./memberParts').then((module) => ({ default: module.MemberAvatar })),
);
