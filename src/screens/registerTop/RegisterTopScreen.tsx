import { useMachine } from '@xstate/react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button, ButtonLink } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { usePetAdminSetting } from '../../services/clientState/usePetAdminSetting';
import { auth } from '../../services/api/auth';
import { Actions, AuthCard, AuthPage, FormMessage, Links } from '../login/authFormParts';
import { ResendMail } from '../login/ResendMail';
import { providerLabelId } from '../login/SocialSignIn';
import { RegistrationConfirm } from './RegistrationConfirm';
import { RegistrationFields } from './RegistrationFields';
import type { ChosenIcon } from './RegistrationIcon';
import { PROVIDER_QUERY_KEYS } from '../../machines/registration';
import { liveRegistrationMachine } from './registrationSetup';
import { inspectOption } from '../../services/clientState/inspector';

/** /register-top — registration: input, confirm, submitting, mail sent. */
export function Component() {
  const t = useT();
  const [search, setSearch] = useSearchParams();
  const petAdmin = usePetAdminSetting();
  const [machine] = useState(() =>
    liveRegistrationMachine.provide({ actions: { completePetAdmin: () => petAdmin.complete() } }),
  );
  const [snapshot, send, registration] = useMachine(machine, inspectOption());
  const [icon, setIcon] = useState<ChosenIcon | null>(null);
  const { pendingPetPageId } = petAdmin;

  useEffect(() => {
    // A completed registration has ended its chart (a pet registration then clears the held
    // pet page, which runs this again): nothing is left to start.
    if (registration.getSnapshot().status !== 'active') return;
    send({ type: 'START', query: search.toString(), pendingPetPageId });
    // The chart keeps what it read; the address (and so the history) loses the assertion.
    if (search.has('assertion')) {
      const kept = new URLSearchParams(search);
      for (const key of PROVIDER_QUERY_KEYS) kept.delete(key);
      setSearch(kept, { replace: true });
    }
  }, [search, setSearch, pendingPetPageId, send, registration]);

  const { setup, form, errors } = snapshot.context;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send({ type: 'SUBMIT' });
  };

  if (snapshot.matches('invalidUrl')) {
    return (
      <AuthPage>
        <h1>{t('register-title')}</h1>
        <FormMessage>{t('register-inflow-invalid')}</FormMessage>
      </AuthPage>
    );
  }
  if (snapshot.matches('mailSent')) {
    return (
      <AuthPage>
        <h1>{t('register-mail-sent-title')}</h1>
        <AuthCard>
          <FormMessage kind="info">
            {t('register-mail-sent-text', { email: form.email })}
          </FormMessage>
          <p>{t('register-mail-sent-note')}</p>
          <ResendMail resend={() => auth.resendActivation(form.email.trim())} />
          <ButtonLink to="/" $variant="secondary">
            {t('register-to-top')}
          </ButtonLink>
        </AuthCard>
      </AuthPage>
    );
  }
  if (!setup) return null;

  const providerName = setup.provider?.providerName ?? '';
  const providerLabel = providerLabelId(providerName);
  const lead =
    setup.variant === 'external'
      ? t('register-lead-external', { provider: providerLabel ? t(providerLabel) : providerName })
      : setup.mode === 'pet'
        ? t('register-lead-pet')
        : setup.mode === 'otherAdmin'
          ? t('register-lead-other-admin')
          : t('register-lead');
  const confirming = !snapshot.matches('input');
  const submitting = snapshot.matches('submitting');
  const hasErrors = Object.values(errors).some(Boolean);

  return (
    <AuthPage>
      <h1>{t(confirming ? 'register-confirm-title' : 'register-title')}</h1>
      <AuthCard>
        <p>{confirming ? t('register-confirm-lead') : lead}</p>
        {snapshot.matches('failed') && <FormMessage>{t('register-failed')}</FormMessage>}
        {hasErrors && !confirming && <FormMessage>{t('register-invalid')}</FormMessage>}
        <form onSubmit={submit} noValidate>
          {confirming ? (
            <RegistrationConfirm form={form} variant={setup.variant} icon={icon} />
          ) : (
            <RegistrationFields
              form={form}
              errors={errors}
              variant={setup.variant}
              onEdit={(field, value) => send({ type: 'EDIT', field, value })}
              icon={icon}
              onIcon={setIcon}
            />
          )}
          <Actions>
            {confirming && (
              <Button
                type="button"
                $variant="secondary"
                disabled={submitting}
                onClick={() => send({ type: 'BACK' })}
              >
                {t('register-back')}
              </Button>
            )}
            <Button type="submit" disabled={submitting}>
              {t(
                submitting
                  ? 'register-submitting'
                  : confirming
                    ? 'register-submit'
                    : 'register-to-confirm',
              )}
            </Button>
          </Actions>
        </form>
        {!confirming && (
          <Links>
            <span>
              {t('register-have-account')} <Link to="/login">{t('register-login')}</Link>
            </span>
          </Links>
        )}
      </AuthCard>
    </AuthPage>
  );
}
