/**
 * The account restoration's model: the events each state is offered, shared by the model
 * test and the UI replay.
 */
import type { AccountRestoration, RestorationLinkState } from '../../contract/deathDetection';
import type { AccountRestorationContext } from '../../src/machines/accountRestoration';

/** The mailed link's token (as long as the server's), and the provider's assertion. */
export const TOKEN = 'restore-token-0123456789abcdef';
export const ASSERTION = 'provider-assertion-1';
export const PASSWORD = 'correct horse 1';

const RELEASED_AT = '2026-11-10T03:00:00.000Z';
const link = (fields: Partial<RestorationLinkState>) =>
  ({
    releasedAt: RELEASED_AT,
    hasPassword: true,
    providers: [],
    proven: false,
    ...fields,
  }) as unknown as RestorationLinkState;

/** What a link needs: the password; a sign-in with LINE only; nothing more, once proven. */
export const LINKS = {
  password: link({ hasPassword: true, providers: ['line'] }),
  provider: link({ hasPassword: false, providers: ['line'] }),
  proven: link({ hasPassword: false, providers: ['line'], proven: true }),
};

export const RESTORED = {
  restoredAt: '2026-11-20T01:00:00.000Z',
  releasedAt: RELEASED_AT,
  lettersStopped: 1,
  delivered: {
    letters: [
      { title: 'ありがとう', deliveredAt: '2026-11-10T03:05:00.000Z', recipients: ['山田 花子'] },
    ],
    endingNoteSections: [],
    notified: ['山田 花子', '佐藤 次郎'],
    archive: null,
  },
  undone: { page: true, accountDeletionCancelled: false, archiveWithdrawn: false },
} as unknown as AccountRestoration;

/** A refusal as the screen's calls throw it: an error carrying the API's code. */
export const coded = (code: string) => Object.assign(new Error(code), { code });
/** No answer: the network. */
export const offline = new Error('offline');

const done = (actor: string, output: unknown) => ({ type: `xstate.done.actor.${actor}`, output });
const failed = (actor: string, error: unknown) => ({ type: `xstate.error.actor.${actor}`, error });

/** The kind of link a context holds, for telling snapshots apart and for the views. */
export const linkKind = (context: AccountRestorationContext) =>
  context.link === null
    ? 'none'
    : context.link.proven
      ? 'proven'
      : context.link.hasPassword
        ? 'password'
        : 'provider';

/**
 * Snapshots told apart by the state, the kind of link and whether a password was typed: the
 * codes a step leaves are checked on the step that leaves them.
 */
export const serializeRestoration = (snapshot: {
  value: unknown;
  context: AccountRestorationContext;
}) =>
  JSON.stringify([
    snapshot.value,
    linkKind(snapshot.context),
    snapshot.context.password !== '',
    snapshot.context.passwordError,
  ]);

/** Each state is offered the events that can happen in it. */
export const accountRestorationEvents = ((snapshot: { value: unknown }) => {
  switch (snapshot.value) {
    case 'opening':
      return [
        { type: 'OPEN', token: '', assertion: null, proofFailed: false },
        { type: 'OPEN', token: TOKEN, assertion: null, proofFailed: false },
        { type: 'OPEN', token: TOKEN, assertion: null, proofFailed: true },
        { type: 'OPEN', token: TOKEN, assertion: ASSERTION, proofFailed: false },
      ];
    case 'proving':
      return [
        done('proveLink', LINKS.proven),
        failed('proveLink', coded('restoration_identity_mismatch')),
        failed('proveLink', offline),
      ];
    case 'checking':
      return [
        done('readLink', LINKS.password),
        done('readLink', LINKS.provider),
        failed('readLink', coded('restoration_link_invalid')),
        failed('readLink', coded('nothing_to_restore')),
        failed('readLink', offline),
        // A rejection that carries nothing.
        failed('readLink', null),
      ];
    case 'unreachable':
      return [{ type: 'RETRY' }];
    case 'ready':
      return [{ type: 'PASSWORD', value: PASSWORD }, { type: 'SUBMIT' }];
    case 'restoring':
      return [
        done('restore', RESTORED),
        failed('restore', coded('password_incorrect')),
        failed('restore', coded('restoration_link_invalid')),
        failed('restore', offline),
      ];
    default:
      return [];
  }
}) as never;
