import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import styled from 'styled-components';
import { UserSelectField, type Choice } from '../../components/form/ChoiceFields';
import { ChoiceGroup, ChoiceLabel, FieldFrame, Label } from '../../components/form/FieldFrame';
import {
  DateField,
  DateTimeField,
  InputField,
  NumberField,
  TextareaField,
} from '../../components/form/TextFields';
import { Button } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { UploadRefused } from '../../services/api/uploads';
import { TransferProgress } from '../../components/upload/UploadProgress';
import { UploadCancelled, useUploadProgress } from '../../components/upload/useUploadProgress';
import {
  LETTER_BODY_MAX_LENGTH,
  LETTER_MAX_ANNIVERSARY_YEARS,
  LETTER_MAX_DELAY_DAYS,
  LETTER_MAX_PHOTOS,
  LETTER_TITLE_MAX_LENGTH,
  type LetterInput,
} from '../../contract/rules/timecapsule';
import { Notice } from '../../components/ui/Notice';
import { Actions } from '../../components/ui/pageLayout';
import {
  checkDraft,
  DELIVERY_RULES,
  memberRecipientsProblem,
  problemOf,
  type FieldProblem,
  type GuestDraft,
  type LetterDraft,
} from './letterDraft';
import { memorialServiceOf } from './letterText';

const Section = styled.fieldset`
  margin: 0 0 24px;
  padding: 16px;
  border: 1px solid ${({ theme }) => theme.colours.border};
  border-radius: 12px;
  min-width: 0;
  legend {
    padding: 0 4px;
    font-weight: bold;
    font-size: 1.05rem;
  }
`;

const Hint = styled.p`
  margin: -12px 0 20px;
  color: ${({ theme }) => theme.colours.textMuted};
  font-size: 0.9rem;
`;

const Explanation = styled.p`
  margin: 0 0 12px;
  color: ${({ theme }) => theme.colours.textMuted};
`;

const Photos = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  margin: 0 0 16px;
  padding: 0;
  list-style: none;
  img {
    display: block;
    width: 120px;
    height: 120px;
    object-fit: cover;
    border-radius: 8px;
    margin-bottom: 4px;
  }
`;

const FileInput = styled.input`
  display: block;
  min-height: 44px;
  max-width: 100%;
`;

/** What the screen does with a letter that passed the shared checks (sends it). */
export type SubmitLetter = (input: LetterInput) => Promise<void>;

export interface LetterFormProps {
  draft: LetterDraft;
  onChange: (draft: LetterDraft) => void;
  /** Connections (recipients and admins are chosen among them). */
  connections: Choice[];
  problems: FieldProblem[];
  onProblems: (problems: FieldProblem[]) => void;
  onSubmit: SubmitLetter;
  submitting: boolean;
  submitLabel: string;
}

/**
 * The compose form: recipients (connections, or a name and email for someone not yet a
 * member), title, body, photos, when it is delivered and who administers it. Checked with the
 * server's own schema before it is sent; the server's 422 lands on the same fields.
 */
export function LetterForm({
  draft,
  onChange,
  connections,
  problems,
  onProblems,
  onSubmit,
  submitting,
  submitLabel,
}: LetterFormProps) {
  const t = useT();
  const [uploading, setUploading] = useState(false);
  // The Fluent id of why the last upload failed.
  const [uploadProblem, setUploadProblem] = useState<string | null>(null);
  const transfer = useUploadProgress();
  // What the member types while photos upload stays: the photos join the latest draft.
  const latestDraft = useRef(draft);
  useEffect(() => {
    latestDraft.current = draft;
  }, [draft]);
  const [nextGuestKey, setNextGuestKey] = useState(draft.guests.length);
  const errorOf = (field: string) => {
    const problem = problemOf(problems, field);
    return problem && t(`validation-${problem.code}`);
  };
  const set = <K extends keyof LetterDraft>(key: K, value: LetterDraft[K]) =>
    onChange({ ...draft, [key]: value });

  const setGuest = (key: number, change: Partial<GuestDraft>) =>
    set(
      'guests',
      draft.guests.map((guest) => (guest.key === key ? { ...guest, ...change } : guest)),
    );
  const addGuest = () => {
    set('guests', [...draft.guests, { key: nextGuestKey, lastName: '', firstName: '', email: '' }]);
    setNextGuestKey(nextGuestKey + 1);
  };

  // One file at a time, each with its progress; a cancel or a refusal keeps those already sent.
  const addPhotos = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])].slice(0, LETTER_MAX_PHOTOS - draft.photos.length);
    event.target.value = '';
    if (files.length === 0) return;
    setUploading(true);
    setUploadProblem(null);
    const added: { name: string; url: string }[] = [];
    try {
      for (const file of files) {
        added.push({ name: await transfer.upload(file), url: URL.createObjectURL(file) });
      }
    } catch (error) {
      if (!(error instanceof UploadCancelled)) {
        setUploadProblem(
          error instanceof UploadRefused
            ? `validation-${error.code}`
            : 'timecapsule-form-upload-failed',
        );
      }
    }
    const current = latestDraft.current;
    if (added.length > 0) onChange({ ...current, photos: [...current.photos, ...added] });
    setUploading(false);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkDraft(draft);
    if (!checked.ok) return onProblems(checked.problems);
    onProblems([]);
    void onSubmit(checked.input);
  };

  const membersProblem = memberRecipientsProblem(problems, draft.memberIds.length);
  const years = Number(draft.anniversaryYears);
  const memorialService = Number.isInteger(years) ? memorialServiceOf(t, years) : undefined;

  return (
    <form onSubmit={submit} noValidate aria-label={submitLabel}>
      <Section>
        <legend>{t('timecapsule-form-recipients')}</legend>
        <UserSelectField
          id="letter-members"
          label={t('timecapsule-form-members')}
          choices={connections}
          value={draft.memberIds}
          onChange={(value) => set('memberIds', value)}
          emptyText={t('timecapsule-form-no-connections')}
          error={membersProblem && t(`validation-${membersProblem.code}`)}
        />
        {draft.guests.map((guest, row) => {
          const field = `recipients.${draft.memberIds.length + row}`;
          const id = `letter-guest-${guest.key}`;
          const guestError = (part: string) =>
            errorOf(`${field}.${part}`) ??
            (part === 'email' && problems.some((p) => p.field === field)
              ? errorOf(field)
              : undefined);
          return (
            <Section key={guest.key}>
              <legend>{t('timecapsule-form-guest', { number: row + 1 })}</legend>
              <InputField
                id={`${id}-last-name`}
                label={t('timecapsule-form-guest-last-name')}
                value={guest.lastName}
                onChange={(lastName) => setGuest(guest.key, { lastName })}
                error={guestError('last_name')}
              />
              <InputField
                id={`${id}-first-name`}
                label={t('timecapsule-form-guest-first-name')}
                value={guest.firstName}
                onChange={(firstName) => setGuest(guest.key, { firstName })}
                error={guestError('first_name')}
              />
              <InputField
                id={`${id}-email`}
                label={t('timecapsule-form-guest-email')}
                value={guest.email}
                onChange={(email) => setGuest(guest.key, { email })}
                error={guestError('email')}
              />
              <Button
                type="button"
                $variant="secondary"
                onClick={() =>
                  set(
                    'guests',
                    draft.guests.filter((other) => other.key !== guest.key),
                  )
                }
              >
                {t('timecapsule-form-guest-remove', { number: row + 1 })}
              </Button>
            </Section>
          );
        })}
        <Button type="button" $variant="secondary" onClick={addGuest}>
          {t('timecapsule-form-guest-add')}
        </Button>
      </Section>

      <InputField
        id="letter-title"
        label={t('timecapsule-form-title')}
        value={draft.title}
        maxLength={LETTER_TITLE_MAX_LENGTH}
        onChange={(title) => set('title', title)}
        error={errorOf('title')}
      />
      <TextareaField
        id="letter-body"
        label={t('timecapsule-form-body')}
        value={draft.body}
        maxLength={LETTER_BODY_MAX_LENGTH}
        onChange={(body) => set('body', body)}
        error={errorOf('body')}
      />

      <Section>
        <legend>{t('timecapsule-form-photos')}</legend>
        {draft.photos.length > 0 && (
          <Photos>
            {draft.photos.map((photo, index) => (
              <li key={photo.name}>
                <img src={photo.url} alt={t('timecapsule-photo', { number: index + 1 })} />
                <Button
                  type="button"
                  $variant="secondary"
                  onClick={() =>
                    set(
                      'photos',
                      draft.photos.filter((other) => other.name !== photo.name),
                    )
                  }
                >
                  {t('timecapsule-form-photo-remove', { number: index + 1 })}
                </Button>
              </li>
            ))}
          </Photos>
        )}
        {draft.photos.length < LETTER_MAX_PHOTOS && (
          <FieldFrame id="letter-photos" error={errorOf('photo_names')}>
            <Label htmlFor="letter-photos">
              {t('timecapsule-form-photo-add', { max: LETTER_MAX_PHOTOS })}
            </Label>
            <FileInput
              id="letter-photos"
              type="file"
              accept="image/jpeg,image/png,image/webp"
              multiple
              disabled={uploading}
              onChange={(event) => void addPhotos(event)}
            />
          </FieldFrame>
        )}
        <TransferProgress transfer={transfer} />
        <div role="alert">
          {uploadProblem && <Notice $tone="attention">{t(uploadProblem)}</Notice>}
        </div>
      </Section>

      <Section>
        <legend>{t('timecapsule-form-delivery')}</legend>
        <FieldFrame id="letter-rule" error={undefined}>
          <ChoiceGroup id="letter-rule">
            <legend>{t('timecapsule-form-rule')}</legend>
            {DELIVERY_RULES.map((rule) => (
              <ChoiceLabel key={rule}>
                <input
                  type="radio"
                  name="letter-rule"
                  value={rule}
                  checked={draft.rule === rule}
                  onChange={() => set('rule', rule)}
                />
                {t(`timecapsule-rule-${rule}`)}
              </ChoiceLabel>
            ))}
          </ChoiceGroup>
        </FieldFrame>
        {draft.rule === 'date' && (
          <DateTimeField
            id="letter-send-at"
            label={t('timecapsule-form-send-at')}
            value={draft.sendAt}
            onChange={(sendAt) => set('sendAt', sendAt)}
            error={errorOf('delivery.send_at')}
          />
        )}
        {draft.rule === 'death' && (
          <>
            <NumberField
              id="letter-delay-days"
              label={t('timecapsule-form-delay-days')}
              value={draft.delayDays}
              min={0}
              max={LETTER_MAX_DELAY_DAYS}
              onChange={(delayDays) => set('delayDays', delayDays)}
              error={errorOf('delivery.delay_days')}
            />
            <Hint>{t('timecapsule-form-delay-days-hint')}</Hint>
          </>
        )}
        {draft.rule === 'death_anniversary' && (
          <>
            <NumberField
              id="letter-anniversary-years"
              label={t('timecapsule-form-anniversary-years')}
              value={draft.anniversaryYears}
              min={1}
              max={LETTER_MAX_ANNIVERSARY_YEARS}
              onChange={(anniversaryYears) => set('anniversaryYears', anniversaryYears)}
              error={errorOf('delivery.anniversary_years')}
            />
            <Hint aria-live="polite">
              {memorialService
                ? t('timecapsule-form-anniversary-service', { service: memorialService })
                : t('timecapsule-form-anniversary-hint')}
            </Hint>
          </>
        )}
        {draft.rule === 'date_after_death' && (
          <>
            <DateField
              id="letter-after-death-date"
              label={t('timecapsule-form-after-death-date')}
              value={draft.afterDeathDate}
              onChange={(afterDeathDate) => set('afterDeathDate', afterDeathDate)}
              error={errorOf('delivery.after_death_date')}
            />
            <Hint>{t('timecapsule-form-after-death-date-hint')}</Hint>
          </>
        )}
      </Section>

      <Section>
        <legend>{t('timecapsule-form-admins-heading')}</legend>
        <Explanation>{t('timecapsule-form-admins-hint')}</Explanation>
        <UserSelectField
          id="letter-admins"
          label={t('timecapsule-form-admins')}
          choices={connections}
          value={draft.adminIds}
          onChange={(value) => set('adminIds', value)}
          emptyText={t('timecapsule-form-no-connections-admin')}
          error={errorOf('admin_user_ids')}
        />
      </Section>

      <div role="alert">
        {problems.length > 0 && <Notice $tone="attention">{t('timecapsule-form-invalid')}</Notice>}
      </div>
      <Actions>
        <Button type="submit" disabled={submitting || uploading}>
          {submitting ? t('timecapsule-form-saving') : submitLabel}
        </Button>
      </Actions>
    </form>
  );
}
