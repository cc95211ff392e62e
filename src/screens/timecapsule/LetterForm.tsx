import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { UserSelectField, type Choice } from '../../components/form/ChoiceFields';
import { InputField, TextareaField } from '../../components/form/TextFields';
import { Button } from '../../components/ui/Button';
import { Notice } from '../../components/ui/Notice';
import { Actions } from '../../components/ui/pageLayout';
import {
  LETTER_BODY_MAX_LENGTH,
  LETTER_TITLE_MAX_LENGTH,
  type LetterInput,
} from '../../../contract/rules/timecapsule';
import { useT } from '../../i18n/useT';
import { LetterDelivery } from './LetterDelivery';
import { checkDraft, problemOf, type FieldProblem, type LetterDraft } from './letterDraft';
import { Section } from './letterFormParts';
import { LetterPhotos } from './LetterPhotos';
import { LetterRecipients } from './LetterRecipients';

const Explanation = styled.p`
  margin: 0 0 12px;
  color: ${({ theme }) => theme.colours.textMuted};
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
  const errorOf = (field: string) => {
    const problem = problemOf(problems, field);
    return problem && t(`validation-${problem.code}`);
  };
  const set = <K extends keyof LetterDraft>(key: K, value: LetterDraft[K]) =>
    onChange({ ...draft, [key]: value });
  const part = { draft, set, errorOf };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkDraft(draft);
    if (!checked.ok) return onProblems(checked.problems);
    onProblems([]);
    void onSubmit(checked.input);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={submitLabel}>
      <LetterRecipients {...part} connections={connections} problems={problems} />
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
      <LetterPhotos
        {...part}
        onChange={onChange}
        uploading={uploading}
        onUploading={setUploading}
      />
      <LetterDelivery {...part} />
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
