import { fromPromise } from 'xstate';
import {
  registrationMachine,
  type ActivationLink,
  type RegistrationSetup,
} from '../../machines/registration';
import type { RegistrationRequest } from '../../contract/registrationRequest';
import { auth } from '../../services/api/auth';
import { firstVisit } from '../../services/persistence/firstVisit';

const truthy = (value: string | null) => value !== null && /^(true|1)$/i.test(value);

/**
 * What the registration URL says (spec §1, §2; docs/client-auth.md):
 * - `inflow=True` or an `inflowId`: the partner-inflow variant (it needs the inflowId);
 * - `provider`, `providerUserId` and `assertion` (set by the server after a first social
 *   sign-in) with `email` and `name` to prefill: the external-provider variant;
 * - `pet=true` (with `adminPetId`, else the pet page being set up in this browser) or
 *   `otherAdmin=true`: the modes.
 */
export function registrationSetupFromQuery(
  search: URLSearchParams,
  pendingPetPageId: string | null,
): RegistrationSetup {
  const provider = search.get('provider');
  const providerUserId = search.get('providerUserId');
  const assertion = search.get('assertion');
  const external = Boolean(provider && providerUserId && assertion);
  const inflowId = search.get('inflowId');
  const inflow = !external && (search.get('inflow')?.toLowerCase() === 'true' || inflowId !== null);
  const mode = truthy(search.get('pet'))
    ? 'pet'
    : truthy(search.get('otherAdmin'))
      ? 'otherAdmin'
      : null;
  return {
    variant: external ? 'external' : inflow ? 'inflow' : 'standard',
    mode,
    inflowId: inflowId || null,
    adminPetId: mode === 'pet' ? search.get('adminPetId') || pendingPetPageId : null,
    pendingPetPageId,
    provider: external
      ? {
          providerName: provider!,
          providerUserId: providerUserId!,
          accessToken: assertion!,
          expiredDate: search.get('expiredDate'),
        }
      : null,
    prefill: external
      ? { email: search.get('email') ?? '', username: search.get('name') ?? '' }
      : {},
  };
}

/**
 * Activation links are single use: one call per link and page, even when the chart is
 * started twice (React's development double mount restarts running actors).
 */
const activations = new Map<string, Promise<void>>();

/** The registration chart with the real calls. */
export const liveRegistrationMachine = registrationMachine.provide({
  actors: {
    // A new member: the dashboard welcomes them until they dismiss it (spec §9 isFirstTimeUser).
    register: fromPromise(async ({ input }: { input: RegistrationRequest }) => {
      const answer = await auth.register(input);
      firstVisit.start();
      return answer;
    }),
  },
});

/**
 * The chart of the activation screen: `activate` spends the link and signs the new member in
 * (the session's own call, docs/client-auth.md "Activation signs in").
 */
export function activationMachine(activate: (link: ActivationLink) => Promise<void>) {
  return liveRegistrationMachine.provide({
    actors: {
      activate: fromPromise(async ({ input }: { input: ActivationLink }) => {
        const key = `${input.token}\n${input.email}`;
        let activation = activations.get(key);
        if (!activation) {
          activation = activate(input);
          activations.set(key, activation);
        }
        await activation;
        firstVisit.start();
      }),
    },
  });
}
