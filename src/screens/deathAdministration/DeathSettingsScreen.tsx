import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { CheckboxField } from '../../components/form/ChoiceFields';
import { ChoiceField, ChoiceLabel } from '../../components/form/FieldFrame';
import { NumberField } from '../../components/form/TextFields';
import { Button, ButtonLink } from '../../components/ui/Button';
import { Notice } from '../../components/ui/Notice';
import { useT } from '../../i18n/useT';
import {
  deathKeys,
  fetchDeathSettings,
  fetchIntegrationLinks,
  saveDeathSettings,
  unlinkIntegration,
  type DeathSettings,
} from '../../services/api/deathDetection';
import { fetchConnections, socialKeys, type Connection } from '../../services/api/social';
import {
  ACCOUNT_AFTER_DEATH_VALUES,
  CHECK_IN_PERIOD_DAYS_MAX,
  CHECK_IN_PERIOD_DAYS_MIN,
  DELETE_AFTER_DAYS_MAX,
  DELETE_AFTER_DAYS_MIN,
  MAX_ADMINISTRATORS,
  PAGE_AFTER_DEATH_VALUES,
  type AccountAfterDeath,
  type PageAfterDeath,
} from '../../../contract/rules/deathDetection';
import { ItemList, Muted } from '../dashboard/homeParts';
import { Actions, Page, Panel } from '../../components/ui/pageLayout';
import { PasswordField } from '../login/authFormParts';
import { formatTokyoDate } from '../deathConfirmation/dates';
import { codedFailureOf, CodedFailure } from './apiFailure';

const DEFAULT_CHECK_IN_DAYS = 180;

const Steps = styled.ol`
  padding-left: 1.4em;
  line-height: 1.8;
  li + li {
    margin-top: 6px;
  }
`;

const Explained = styled.span`
  display: block;
  font-weight: normal;
  font-size: 0.9em;
`;

/** What happens, from a first signal to the release, in plain words. */
function HowItWorks({ graceDays }: { graceDays: number }) {
  const t = useT();
  return (
    <Panel aria-labelledby="death-settings-how">
      <h2 id="death-settings-how">{t('death-settings-how-heading')}</h2>
      <Steps>
        <li>{t('death-settings-how-signal')}</li>
        <li>{t('death-settings-how-cancel')}</li>
        <li>{t('death-settings-how-confirm')}</li>
        <li>{t('death-settings-how-grace', { days: graceDays })}</li>
        <li>{t('death-settings-how-release')}</li>
      </Steps>
    </Panel>
  );
}

interface Draft {
  administratorIds: string[];
  rule: 'any_one' | 'two';
  checkInsOn: boolean;
  checkInDays: string;
  page: PageAfterDeath;
  account: AccountAfterDeath;
  deleteDays: string;
  /** '' for no archive. */
  archiveRecipient: string;
  currentPassword: string;
}

const draftOf = (settings: DeathSettings): Draft => ({
  administratorIds: settings.administrators.map((administrator) => administrator.userId),
  rule: settings.rule,
  checkInsOn: settings.checkInPeriodDays !== null,
  checkInDays: String(settings.checkInPeriodDays ?? DEFAULT_CHECK_IN_DAYS),
  page: settings.afterDeath.page,
  account: settings.afterDeath.account,
  deleteDays: String(settings.afterDeath.deleteAfterDays ?? DELETE_AFTER_DAYS_MIN),
  archiveRecipient: settings.afterDeath.archiveRecipientUserId ?? '',
  currentPassword: '',
});

/** A day count the rule accepts. */
const withinDays = (text: string, min: number, max: number) => {
  const days = Number(text);
  return Number.isInteger(days) && days >= min && days <= max;
};

/**
 * The member's choices for after their death: the page, the account (with what a deletion
 * keeps and takes, said plainly) and the administrator who receives the archive.
 */
function AfterDeathChoices({
  draft,
  change,
  administrators,
  errorOf,
}: {
  draft: Draft;
  change: (patch: Partial<Draft>) => void;
  administrators: Connection[];
  errorOf: (field: string) => string | undefined;
}) {
  const t = useT();
  return (
    <section aria-labelledby="death-settings-after">
      <h3 id="death-settings-after">{t('death-settings-after-heading')}</h3>
      <p>{t('death-settings-after-explained')}</p>
      <ChoiceField
        id="death-settings-after-page"
        label={t('death-settings-after-page')}
        error={errorOf('after_death.page')}
      >
        {PAGE_AFTER_DEATH_VALUES.map((page) => (
          <ChoiceLabel key={page}>
            <input
              type="radio"
              name="death-settings-after-page"
              value={page}
              checked={draft.page === page}
              onChange={() => change({ page })}
            />
            <span>
              {t(`death-settings-after-page-${page}`)}
              <Explained>{t(`death-settings-after-page-${page}-explained`)}</Explained>
            </span>
          </ChoiceLabel>
        ))}
      </ChoiceField>
      <ChoiceField
        id="death-settings-after-account"
        label={t('death-settings-after-account')}
        error={errorOf('after_death.account')}
      >
        {ACCOUNT_AFTER_DEATH_VALUES.map((account) => (
          <ChoiceLabel key={account}>
            <input
              type="radio"
              name="death-settings-after-account"
              value={account}
              checked={draft.account === account}
              onChange={() => change({ account })}
            />
            <span>
              {t(`death-settings-after-account-${account}`)}
              <Explained>{t(`death-settings-after-account-${account}-explained`)}</Explained>
            </span>
          </ChoiceLabel>
        ))}
      </ChoiceField>
      {draft.account === 'delete' && (
        <>
          <NumberField
            id="death-settings-after-delete-days"
            label={t('death-settings-after-delete-days', {
              min: DELETE_AFTER_DAYS_MIN,
              max: DELETE_AFTER_DAYS_MAX,
            })}
            min={DELETE_AFTER_DAYS_MIN}
            max={DELETE_AFTER_DAYS_MAX}
            value={draft.deleteDays}
            onChange={(deleteDays) => change({ deleteDays })}
            error={errorOf('after_death.delete_after_days')}
          />
          <Notice
            $tone="attention"
            role="note"
            aria-label={t('death-settings-after-account-delete')}
          >
            <p>{t('death-settings-after-delete-keeps')}</p>
            <p>{t('death-settings-after-delete-goes')}</p>
            <p>{t('death-settings-after-delete-restore')}</p>
          </Notice>
        </>
      )}
      <ChoiceField
        id="death-settings-after-archive"
        label={t('death-settings-after-archive')}
        error={errorOf('after_death.archive_recipient_user_id')}
      >
        <p>{t('death-settings-after-archive-explained')}</p>
        <ChoiceLabel>
          <input
            type="radio"
            name="death-settings-after-archive"
            value=""
            checked={draft.archiveRecipient === ''}
            onChange={() => change({ archiveRecipient: '' })}
          />
          <span>{t('death-settings-after-archive-none')}</span>
        </ChoiceLabel>
        {administrators.map((administrator) => (
          <ChoiceLabel key={administrator.userId}>
            <input
              type="radio"
              name="death-settings-after-archive"
              value={administrator.userId}
              checked={draft.archiveRecipient === administrator.userId}
              onChange={() => change({ archiveRecipient: administrator.userId })}
            />
            <span>
              {t('death-person-name', {
                lastName: administrator.lastName,
                firstName: administrator.firstName,
              })}
            </span>
          </ChoiceLabel>
        ))}
      </ChoiceField>
    </section>
  );
}

function SettingsForm({
  settings,
  connections,
}: {
  settings: DeathSettings;
  connections: Connection[];
}) {
  const t = useT();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const [failure, setFailure] = useState<CodedFailure | null>(null);
  const [saved, setSaved] = useState(false);
  const change = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
    setSaved(false);
  };
  const save = useMutation({
    mutationFn: () =>
      saveDeathSettings({
        rule: draft.rule,
        administratorUserIds: draft.administratorIds,
        checkInPeriodDays: draft.checkInsOn ? Number(draft.checkInDays) : null,
        afterDeath: {
          page: draft.page,
          account: draft.account,
          deleteAfterDays: draft.account === 'delete' ? Number(draft.deleteDays) : null,
          archiveRecipientUserId: draft.archiveRecipient || null,
        },
        ...(draft.currentPassword ? { currentPassword: draft.currentPassword } : {}),
      }).catch((error: unknown) => {
        throw codedFailureOf(error);
      }),
    onSuccess: (answer) => {
      queryClient.setQueryData(deathKeys.settings, answer);
      setFailure(null);
      setSaved(true);
      setDraft({ ...draftOf(answer), currentPassword: '' });
    },
    onError: (error) =>
      setFailure(error instanceof CodedFailure ? error : new CodedFailure('unexpected')),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const days = Number(draft.checkInDays);
    if (
      draft.checkInsOn &&
      !(
        Number.isInteger(days) &&
        days >= CHECK_IN_PERIOD_DAYS_MIN &&
        days <= CHECK_IN_PERIOD_DAYS_MAX
      )
    ) {
      setFailure(new CodedFailure('out_of_range', 'check_in_period_days'));
      return;
    }
    if (
      draft.account === 'delete' &&
      !withinDays(draft.deleteDays, DELETE_AFTER_DAYS_MIN, DELETE_AFTER_DAYS_MAX)
    ) {
      setFailure(new CodedFailure('out_of_range', 'after_death.delete_after_days'));
      return;
    }
    if (draft.rule === 'two' && draft.administratorIds.length < 2) {
      setFailure(new CodedFailure('needs_two_administrators', 'rule'));
      return;
    }
    save.mutate();
  };
  // The deletion's days have their own range, worded apart from the check-in period's.
  const errorOf = (field: string) =>
    failure?.field === field
      ? t(
          field === 'after_death.delete_after_days' && failure.code === 'out_of_range'
            ? 'death-settings-error-after-out_of_range'
            : `death-settings-error-${failure.code}`,
        )
      : undefined;
  const acceptedAt = new Map(
    settings.administrators.map((administrator) => [
      administrator.userId,
      administrator.acceptedAt,
    ]),
  );
  const relationshipOf = (connection: Connection) => t(`relationship-${connection.relationship}`);

  return (
    <form onSubmit={submit} noValidate aria-labelledby="death-settings-form">
      <h2 id="death-settings-form">{t('death-settings-form-heading')}</h2>
      <ChoiceField
        id="death-settings-administrators"
        label={t('death-settings-administrators', { max: MAX_ADMINISTRATORS })}
        error={errorOf('administrator_user_ids')}
      >
        <p>{t('death-settings-administrators-hint')}</p>
        {connections.length === 0 && <p>{t('death-settings-no-connections')}</p>}
        {connections.map((connection) => {
          const chosen = draft.administratorIds.includes(connection.userId);
          const accepted = acceptedAt.get(connection.userId);
          return (
            <ChoiceLabel key={connection.userId}>
              <input
                type="checkbox"
                name="death-settings-administrators"
                value={connection.userId}
                checked={chosen}
                onChange={(event) =>
                  change({
                    administratorIds: event.target.checked
                      ? [...draft.administratorIds, connection.userId]
                      : draft.administratorIds.filter((id) => id !== connection.userId),
                    // The archive goes only to one of the administrators.
                    ...(!event.target.checked && draft.archiveRecipient === connection.userId
                      ? { archiveRecipient: '' }
                      : {}),
                  })
                }
              />
              <span>
                {t('death-person-name', {
                  lastName: connection.lastName,
                  firstName: connection.firstName,
                })}
                {t('death-settings-relationship', { relationship: relationshipOf(connection) })}
                {accepted !== undefined && (
                  <Explained>
                    {accepted
                      ? t('death-settings-accepted', { date: formatTokyoDate(accepted) })
                      : t('death-settings-waiting')}
                  </Explained>
                )}
              </span>
            </ChoiceLabel>
          );
        })}
      </ChoiceField>
      <ChoiceField
        id="death-settings-rule"
        label={t('death-settings-rule')}
        error={errorOf('rule')}
      >
        {(['any_one', 'two'] as const).map((rule) => (
          <ChoiceLabel key={rule}>
            <input
              type="radio"
              name="death-settings-rule"
              value={rule}
              checked={draft.rule === rule}
              onChange={() => change({ rule })}
            />
            <span>
              {t(`death-settings-rule-${rule}`)}
              <Explained>{t(`death-settings-rule-${rule}-explained`)}</Explained>
            </span>
          </ChoiceLabel>
        ))}
      </ChoiceField>
      <CheckboxField
        id="death-settings-check-ins"
        label={t('death-settings-check-ins')}
        value={draft.checkInsOn}
        onChange={(checkInsOn) => change({ checkInsOn })}
      />
      <p>
        <Muted>{t('death-settings-check-ins-explained')}</Muted>
      </p>
      {draft.checkInsOn && (
        <NumberField
          id="death-settings-check-in-days"
          label={t('death-settings-check-in-days', {
            min: CHECK_IN_PERIOD_DAYS_MIN,
            max: CHECK_IN_PERIOD_DAYS_MAX,
          })}
          min={CHECK_IN_PERIOD_DAYS_MIN}
          max={CHECK_IN_PERIOD_DAYS_MAX}
          value={draft.checkInDays}
          onChange={(checkInDays) => change({ checkInDays })}
          error={errorOf('check_in_period_days')}
        />
      )}
      <AfterDeathChoices
        draft={draft}
        change={change}
        administrators={connections.filter((connection) =>
          draft.administratorIds.includes(connection.userId),
        )}
        errorOf={errorOf}
      />
      <PasswordField
        id="death-settings-current-password"
        label={t('death-settings-current-password')}
        hint={t('death-settings-current-password-hint')}
        value={draft.currentPassword}
        onChange={(currentPassword) => change({ currentPassword })}
        error={errorOf('current_password')}
        autoComplete="current-password"
      />
      {failure && failure.field === null && (
        <Notice $tone="attention" role="alert">
          {t(`death-settings-error-${failure.code}`)}
        </Notice>
      )}
      {saved && (
        <Notice $tone="success" role="status">
          {t('death-settings-saved')}
        </Notice>
      )}
      <Actions>
        <Button type="submit" disabled={save.isPending}>
          {t('death-settings-save')}
        </Button>
      </Actions>
    </form>
  );
}

/** The external services the member linked (they may report a suspected death); unlink. */
function IntegrationLinks() {
  const t = useT();
  const queryClient = useQueryClient();
  const links = useQuery({ queryKey: deathKeys.integrationLinks, queryFn: fetchIntegrationLinks });
  const unlink = useMutation({
    mutationFn: unlinkIntegration,
    onSettled: () => queryClient.invalidateQueries({ queryKey: deathKeys.integrationLinks }),
  });
  return (
    <Panel aria-labelledby="death-settings-integrations">
      <h2 id="death-settings-integrations">{t('death-settings-integrations-heading')}</h2>
      <p>{t('death-settings-integrations-explained')}</p>
      {links.isError && <p role="alert">{t('dashboard-load-error')}</p>}
      {links.data?.length === 0 && <p>{t('death-settings-integrations-none')}</p>}
      <ItemList>
        {links.data?.map((link) => (
          <li key={link.clientId}>
            {t('death-settings-integration-linked', {
              client: link.clientId,
              date: formatTokyoDate(link.createdAt),
            })}{' '}
            <Button
              type="button"
              $variant="secondary"
              disabled={unlink.isPending}
              onClick={() => unlink.mutate(link.clientId)}
            >
              {t('death-settings-integration-unlink')}
            </Button>
          </li>
        ))}
      </ItemList>
      {unlink.isError && <p role="alert">{t('death-settings-error-unexpected')}</p>}
    </Panel>
  );
}

/** /death-settings: the member's death administrators, rule and check-ins, explained. */
export function Component() {
  const t = useT();
  const settings = useQuery({ queryKey: deathKeys.settings, queryFn: fetchDeathSettings });
  const connections = useQuery({ queryKey: socialKeys.connections, queryFn: fetchConnections });
  const loading = settings.isPending || connections.isPending;
  return (
    <Page aria-busy={loading}>
      <h1>{t('death-settings-title')}</h1>
      <p>{t('death-settings-intro')}</p>
      {loading && <p>{t('dashboard-loading')}</p>}
      {(settings.isError || connections.isError) && <p role="alert">{t('dashboard-load-error')}</p>}
      {settings.data && <HowItWorks graceDays={settings.data.gracePeriodDays} />}
      {settings.data && connections.data && (
        <Panel>
          <SettingsForm settings={settings.data} connections={connections.data} />
        </Panel>
      )}
      <IntegrationLinks />
      <Panel aria-labelledby="death-settings-administered">
        <h2 id="death-settings-administered">{t('death-settings-administered-heading')}</h2>
        <p>{t('death-settings-administered-explained')}</p>
        <ButtonLink to="/death-administration" $variant="secondary">
          {t('death-settings-administered-open')}
        </ButtonLink>
      </Panel>
    </Page>
  );
}
