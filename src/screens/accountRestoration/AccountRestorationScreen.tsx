import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { fromPromise } from 'xstate';
import { Button } from '../../components/ui/Button';
import { formatTokyoInstantDate } from '../../components/ui/calendarDate';
import { useT } from '../../i18n/useT';
import { accountRestorationMachine } from '../../machines/accountRestoration';
import {
  fetchRestorationLink,
  proveRestoration,
  restoreAccount,
  restoreWithProviderUrl,
  type AccountRestoration,
} from '../../services/api/deathDetection';
import { inspectOption } from '../../services/clientState/inspector';
import { coded } from '../deathAdministration/apiFailure';
import { providerLabelId } from '../login/SocialSignIn';
import {
  Actions,
  AuthCard,
  AuthPage,
  FormMessage,
  Links,
  PasswordField,
} from '../login/authFormParts';

/**
 * /restore-account?token= — from the mail sent when a member whose death was confirmed signed
 * in; the accountRestoration statechart drives it (docs/machines/accountRestoration.md). The
 * link is checked at once: a used or expired one says so and asks for nothing. Then the
 * password, or a new sign-in with the member's provider (which comes back here with
 * `assertion`, proves the link, and is taken out of the address), restores the account; then
 * what had already been delivered is listed.
 */
export function Component() {
  const t = useT();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  // The address as the screen opened: the assertion leaves it at once, and that must not
  // open the flow again.
  const [opened] = useState(() => ({
    token: search.get('token') ?? '',
    assertion: search.get('assertion'),
    proofFailed: search.get('proof') === 'failed',
  }));
  const machine = useMemo(
    () =>
      accountRestorationMachine.provide({
        actors: {
          proveLink: fromPromise(({ input }) =>
            coded(() => proveRestoration(input.token, input.assertion)),
          ),
          readLink: fromPromise(({ input }) => coded(() => fetchRestorationLink(input.token))),
          restore: fromPromise(({ input }) =>
            coded(() => restoreAccount(input.token, input.password)),
          ),
        },
        actions: {
          dropAssertionFromAddress: (_, { token }) =>
            void navigate(`/restore-account?${new URLSearchParams({ token })}`, {
              replace: true,
            }),
        },
      }),
    [navigate],
  );
  const actor = useActorRef(machine, inspectOption());
  useEffect(() => {
    actor.send({ type: 'OPEN', ...opened });
  }, [actor, opened]);
  const snapshot = useSelector(actor, (state) => state);
  const { link, password, passwordError, failure, proofFailure, restored } = snapshot.context;

  if (snapshot.matches('restored') && restored) return <Restored restored={restored} />;
  const providerName = (id: string) => {
    const label = providerLabelId(id);
    return label ? t(label) : id;
  };
  const providers = link?.providers.filter((id) => providerLabelId(id) !== null) ?? [];
  const names = providers.map(providerName).join(t('restore-provider-separator'));
  const sending = snapshot.matches('restoring');
  const usable = link !== null && (snapshot.matches('ready') || sending);
  const reading =
    snapshot.matches('opening') || snapshot.matches('proving') || snapshot.matches('checking');
  return (
    <AuthPage>
      <h1>{t('restore-title')}</h1>
      <AuthCard>
        {failure && <FormMessage>{t(`restore-error-${failure}`)}</FormMessage>}
        {failure === 'nothing_to_restore' && (
          <Links>
            <Link to="/login">{t('restore-to-login')}</Link>
          </Links>
        )}
        {snapshot.matches('unreachable') && (
          <Actions>
            <Button type="button" onClick={() => actor.send({ type: 'RETRY' })}>
              {t('restore-retry')}
            </Button>
          </Actions>
        )}
        {reading && <p role="status">{t('restore-checking')}</p>}
        {usable && (
          <>
            {proofFailure && <FormMessage>{t(`restore-error-${proofFailure}`)}</FormMessage>}
            {link.proven ? (
              <FormMessage kind="info">{t('restore-proven')}</FormMessage>
            ) : (
              <p>
                {link.hasPassword
                  ? t('restore-lead')
                  : t('restore-lead-provider', { provider: names })}
              </p>
            )}
            <p>{t('restore-what')}</p>
            <form
              onSubmit={(event) => {
                event.preventDefault();
                actor.send({ type: 'SUBMIT' });
              }}
              noValidate
            >
              {!link.proven && link.hasPassword && (
                <PasswordField
                  id="restore-password"
                  label={t('restore-password')}
                  value={password}
                  onChange={(value) => actor.send({ type: 'PASSWORD', value })}
                  error={
                    passwordError === 'required'
                      ? t('validation-required')
                      : passwordError
                        ? t(`restore-error-${passwordError}`)
                        : undefined
                  }
                  autoComplete="current-password"
                  disabled={sending}
                />
              )}
              {(link.proven || link.hasPassword) && (
                <Actions>
                  <Button type="submit" disabled={sending}>
                    {t(sending ? 'restore-submitting' : 'restore-submit')}
                  </Button>
                </Actions>
              )}
            </form>
            {!link.proven && providers.length > 0 && (
              <>
                {link.hasPassword && <p>{t('restore-lead-either', { provider: names })}</p>}
                <Links>
                  {providers.map((id) => (
                    <a key={id} href={restoreWithProviderUrl(id, opened.token)}>
                      {t('restore-with-provider', { provider: providerName(id) })}
                    </a>
                  ))}
                </Links>
              </>
            )}
          </>
        )}
      </AuthCard>
    </AuthPage>
  );
}

/** What the restoration did, and what it could not take back. */
function Restored({ restored }: { restored: AccountRestoration }) {
  const t = useT();
  const names = (list: string[]) => list.join(t('restore-list-separator'));
  const { letters, endingNoteSections, notified, archive } = restored.delivered;
  const nothing =
    letters.length + endingNoteSections.length + notified.length === 0 && archive === null;
  const { undone } = restored;
  return (
    <AuthPage>
      <h1>{t('restore-done-title')}</h1>
      <AuthCard>
        <FormMessage kind="info">{t('restore-done')}</FormMessage>
        {restored.lettersStopped > 0 && (
          <p>{t('restore-stopped', { count: String(restored.lettersStopped) })}</p>
        )}
        {(undone.page || undone.accountDeletionCancelled || undone.archiveWithdrawn) && (
          <section aria-labelledby="restore-undone-heading">
            <h2 id="restore-undone-heading">{t('restore-undone-heading')}</h2>
            <ul>
              {undone.page && <li>{t('restore-undone-page')}</li>}
              {undone.accountDeletionCancelled && <li>{t('restore-undone-deletion')}</li>}
              {undone.archiveWithdrawn && <li>{t('restore-undone-archive')}</li>}
            </ul>
          </section>
        )}
        <section aria-labelledby="restore-delivered-heading">
          <h2 id="restore-delivered-heading">{t('restore-delivered-heading')}</h2>
          {nothing ? (
            <p>{t('restore-delivered-none')}</p>
          ) : (
            <>
              <p>{t('restore-delivered-explained')}</p>
              <ul>
                {letters.map((letter) => (
                  <li key={`${letter.title}-${letter.deliveredAt}`}>
                    {t('restore-delivered-letter', {
                      title: letter.title,
                      recipients: names(letter.recipients),
                      date: formatTokyoInstantDate(new Date(letter.deliveredAt)),
                    })}
                  </li>
                ))}
                {endingNoteSections.map((opened) => (
                  <li key={opened.section}>
                    {t('restore-delivered-section', {
                      section: t(`endingnote-${opened.section}`),
                      readers: names(opened.readers),
                    })}
                  </li>
                ))}
                {notified.length > 0 && (
                  <li>{t('restore-delivered-notified', { names: names(notified) })}</li>
                )}
                {archive && (
                  <li>
                    {t('restore-delivered-archive', {
                      recipient: archive.recipient,
                      date: formatTokyoInstantDate(new Date(archive.downloadedAt)),
                    })}
                  </li>
                )}
              </ul>
            </>
          )}
        </section>
        <Links>
          <Link to="/login">{t('restore-to-login')}</Link>
        </Links>
      </AuthCard>
    </AuthPage>
  );
}
