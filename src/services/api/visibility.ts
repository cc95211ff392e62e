import type { z } from 'zod';
import { visibilityEndpoints, type visibilityOverview } from '../../../contract/visibility';
import { callEndpoint } from '../http/callEndpoint';

/** Who can see what of the member's, in one answer (docs/visibility.md). */
export type VisibilityOverview = z.infer<typeof visibilityOverview>;

export const visibilityKeys = { overview: ['mypage', 'visibility'] as const };

export function fetchVisibilityOverview(): Promise<VisibilityOverview> {
  return callEndpoint(visibilityEndpoints.readVisibility, {});
}
