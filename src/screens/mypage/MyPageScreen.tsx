import { PageFailed, PageLoading } from '../../components/ui/PageLoading';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { CheckboxField } from '../../components/form/ChoiceFields';
import { externalLinks, NEW_TAB_LINK } from '../../components/externalLinks';
import { CalendarSelect } from '../../components/CalendarSelect';
import { ThemeSelect } from '../../components/ThemeSelect';
import { Button, ButtonLink } from '../../components/ui/Button';
import { showToast } from '../../components/ui/toast';
import { useT } from '../../i18n/useT';
import { fetchProfile, homeKeys, updateProfile } from '../../services/api/home';
import { useDeleteAccount } from './useDeleteAccount';
import { useFreshProof } from '../login/useFreshProof';
import { ItemList, NextStep } from '../dashboard/homeParts';
import { Page, Panel } from '../../components/ui/pageLayout';
import { EmailChangeForm, PasswordChangeForm } from './CredentialForms';
import { DataExportPanel } from './DataExportPanel';
import { MemberProfileForm } from './MemberProfileForm';

const POLICY_LINKS = [
  'terms',
  'privacy',
  'commercialTransactions',
  'confidentialInformation',
] as const;

function SearchVisibility({ searchable }: { searchable: boolean }) {
  const t = useT();
  const queryClient = useQueryClient();
  // The box shows the choice at once: a controlled checkbox whose state changes only when the
  // mutation's pending state arrives, a tick later, is first reverted by React.
  const [requested, setRequested] = useState<boolean | null>(null);
  const save = useMutation({
    mutationFn: (value: boolean) => updateProfile({ searchable: value }),
    onSuccess: (saved) => queryClient.setQueryData(homeKeys.profile, saved),
    onError: () => void showToast(t('mypage-save-failed'), 'error'),
    onSettled: () => setRequested(null),
  });
  return (
    <CheckboxField
      id="mypage-searchable"
      label={t('mypage-searchable')}
      value={requested ?? searchable}
      onChange={(value) => {
        setRequested(value);
        save.mutate(value);
      }}
      disabled={requested !== null}
    />
  );
}

/** Deleting the account asks once more; a failure keeps everything (the hook tells it). */
function AccountDeletion() {
  const t = useT();
  const navigate = useNavigate();
  const { deleteAccount, deleting } = useDeleteAccount();
  const { prove, dialog } = useFreshProof();
  const [confirming, setConfirming] = useState(false);
  const confirm = async () => {
    if (await deleteAccount(prove)) void navigate('/', { replace: true });
  };
  return confirming ? (
    <>
      {dialog}
      <p role="alert">{t('mypage-delete-confirm')}</p>
      <NextStep>
        <Button disabled={deleting} onClick={() => void confirm()}>
          {t('mypage-delete-confirm-button')}
        </Button>
        <Button $variant="secondary" disabled={deleting} onClick={() => setConfirming(false)}>
          {t('mypage-delete-keep')}
        </Button>
      </NextStep>
    </>
  ) : (
    <NextStep>
      <Button $variant="secondary" onClick={() => setConfirming(true)}>
        {t('mypage-delete')}
      </Button>
    </NextStep>
  );
}

/**
 * /mypage: profile, e-mail and password, theme, search visibility, taking all one's data,
 * sign-out, deletion.
 */
export function Component() {
  const t = useT();
  const profile = useQuery({ queryKey: homeKeys.profile, queryFn: fetchProfile });
  if (profile.isPending) {
    return <PageLoading title={t('mypage-title')} />;
  }
  if (profile.isError) {
    return <PageFailed title={t('mypage-title')} message={t('dashboard-load-error')} />;
  }
  return (
    <Page>
      <h1>{t('mypage-title')}</h1>
      <Panel aria-labelledby="mypage-profile">
        <h2 id="mypage-profile">{t('mypage-profile-heading')}</h2>
        <MemberProfileForm key={profile.dataUpdatedAt} profile={profile.data} />
      </Panel>
      <Panel aria-labelledby="mypage-email">
        <h2 id="mypage-email">{t('mypage-email-heading')}</h2>
        <EmailChangeForm currentEmail={profile.data.email} />
      </Panel>
      <Panel aria-labelledby="mypage-password">
        <h2 id="mypage-password">{t('mypage-password-heading')}</h2>
        <PasswordChangeForm />
      </Panel>
      <Panel aria-labelledby="mypage-death">
        <h2 id="mypage-death">{t('mypage-death-heading')}</h2>
        <p>{t('mypage-death-explained')}</p>
        <NextStep>
          <ButtonLink to="/death-settings">{t('mypage-death-settings')}</ButtonLink>
          <ButtonLink to="/death-administration" $variant="secondary">
            {t('mypage-death-administration')}
          </ButtonLink>
        </NextStep>
      </Panel>
      <Panel aria-labelledby="mypage-settings">
        <h2 id="mypage-settings">{t('mypage-settings-heading')}</h2>
        <ThemeSelect />
        <CalendarSelect />
        <SearchVisibility searchable={profile.data.searchable} />
        <p>{t('mypage-visibility-explained')}</p>
        <NextStep>
          <ButtonLink to="/mypage/visibility" $variant="secondary">
            {t('mypage-visibility')}
          </ButtonLink>
        </NextStep>
      </Panel>
      <DataExportPanel />
      <Panel aria-labelledby="mypage-account">
        <h2 id="mypage-account">{t('mypage-account-heading')}</h2>
        <NextStep>
          <ButtonLink to="/logout" $variant="secondary">
            {t('logout')}
          </ButtonLink>
        </NextStep>
        <AccountDeletion />
      </Panel>
      <Panel aria-labelledby="mypage-policies">
        <h2 id="mypage-policies">{t('mypage-policies-heading')}</h2>
        <ItemList>
          {POLICY_LINKS.map((name) => (
            <li key={name}>
              <a
                href={externalLinks[name]}
                {...NEW_TAB_LINK}
                aria-label={`${t(`menu-${name}`)} ${t('menu-opens-new-tab')}`}
              >
                {t(`menu-${name}`)}
              </a>
            </li>
          ))}
        </ItemList>
      </Panel>
    </Page>
  );
}
