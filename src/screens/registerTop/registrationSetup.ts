import { fromPromise } from 'xstate';
import { registrationMachine, type ActivationLink } from '../../machines/registration';
import { registrationRules } from '../../machines/registrationRules';
import type { RegistrationRequest } from '../../../contract/registrationRequest';
import { auth } from '../../services/api/auth';
import { firstVisit } from '../../services/persistence/firstVisit';

/**
 * Activation links are single use: one call per link while it runs, even when the chart is
 * started twice (React's development double mount restarts running actors). A settled call
 * is not kept: opening the link again asks the server again, as a new page load would.
 */
const activations = new Map<string, Promise<void>>();

/** The registration chart with the real calls and the shared form rules. */
export const liveRegistrationMachine = registrationMachine.provide({
  ...registrationRules,
  actors: {
    // A new member: the dashboard welcomes them until they dismiss it (isFirstTimeUser).
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
        const key = `${input.token}\n${input.email}\n${input.password ?? ''}\n${input.assertion ?? ''}`;
        let activation = activations.get(key);
        if (!activation) {
          activation = activate(input).finally(() => activations.delete(key));
          activations.set(key, activation);
        }
        await activation;
        firstVisit.start();
      }),
    },
  });
}
