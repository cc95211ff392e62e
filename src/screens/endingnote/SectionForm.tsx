import { useState, type FormEvent } from 'react';
import type { Choice } from '../../components/form/ChoiceFields';
import { Button } from '../../components/ui/Button';
import { Notice } from '../../components/ui/Notice';
import { useT } from '../../i18n/useT';
import { saveSection, type FieldProblem, type SectionView } from '../../services/api/endingnote';
import {
  sectionDefinition,
  type FieldValue,
  type SectionValues,
} from '../../../contract/rules/endingnote';
import { Actions } from '../../components/ui/pageLayout';
import { SectionFieldControl } from './SectionFieldControl';

type Status =
  | { kind: 'editing' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'stale' }
  | { kind: 'invalid'; problems: FieldProblem[] }
  | { kind: 'failed' };

const sameValues = (a: SectionValues, b: SectionValues) => JSON.stringify(a) === JSON.stringify(b);

/** The problems of one field, by its code (`values.<field>` or `values.<field>.<index>`). */
function problemOf(problems: FieldProblem[], fieldCode: string): FieldProblem | undefined {
  return problems.find(
    (problem) =>
      problem.field === `values.${fieldCode}` || problem.field.startsWith(`values.${fieldCode}.`),
  );
}

export interface SectionFormProps {
  userId: string;
  /** The section as last loaded from the server. */
  view: SectionView;
  connections: Choice[];
  /** The server stored a new version of the section. */
  onSaved: (view: SectionView) => void;
  /** Loads the stored section again (after another tab saved it). */
  reload: () => Promise<SectionView | undefined>;
  onDirtyChange: (dirty: boolean) => void;
}

/**
 * One section's form. What is typed lives here until it is saved; a save names the version
 * it was edited from, so a save from a stale tab is refused and what was typed stays.
 */
export function SectionForm({
  userId,
  view,
  connections,
  onSaved,
  reload,
  onDirtyChange,
}: SectionFormProps) {
  const t = useT();
  const section = sectionDefinition(view.section)!;
  const [base, setBase] = useState(view);
  const [draft, setDraft] = useState<SectionValues>(view.values);
  const [status, setStatus] = useState<Status>({ kind: 'editing' });
  const dirty = !sameValues(draft, base.values);

  // A newer version loaded while nothing is typed (another tab saved): show it.
  if (!dirty && view.version !== base.version) {
    setBase(view);
    setDraft(view.values);
  }

  const change = (fieldCode: string, value: FieldValue) => {
    const next = { ...draft, [fieldCode]: value };
    setDraft(next);
    onDirtyChange(!sameValues(next, base.values));
    if (status.kind === 'saved') setStatus({ kind: 'editing' });
  };

  const adopt = (stored: SectionView, values: SectionValues) => {
    setBase(stored);
    setDraft(values);
    onDirtyChange(!sameValues(values, stored.values));
  };

  const save = async (version: number) => {
    setStatus({ kind: 'saving' });
    try {
      const outcome = await saveSection(
        userId,
        section.code as SectionView['section'],
        version,
        draft,
      );
      if (outcome.kind === 'saved') {
        adopt(outcome.section, outcome.section.values);
        onSaved(outcome.section);
        setStatus({ kind: 'saved' });
      } else {
        setStatus(outcome);
      }
    } catch {
      setStatus({ kind: 'failed' });
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(base.version);
  };

  /** Saves what was typed over the version another tab stored. */
  const overwrite = async () => {
    const stored = await reload();
    if (!stored) return setStatus({ kind: 'failed' });
    setBase(stored);
    await save(stored.version);
  };

  /** Drops what was typed and shows the stored version. */
  const showStored = async () => {
    const stored = await reload();
    if (!stored) return setStatus({ kind: 'failed' });
    adopt(stored, stored.values);
    setStatus({ kind: 'editing' });
  };

  const problems = status.kind === 'invalid' ? status.problems : [];
  return (
    <form onSubmit={submit} noValidate aria-label={t(`endingnote-${section.code}`)}>
      {section.fields.map((field) => {
        const problem = problemOf(problems, field.code);
        return (
          <SectionFieldControl
            key={field.code}
            sectionCode={section.code}
            field={field}
            value={draft[field.code]!}
            onChange={(value) => change(field.code, value)}
            connections={connections}
            error={problem && t(`validation-${problem.code}`)}
          />
        );
      })}
      <div aria-live="polite">
        {status.kind === 'saved' && <Notice $tone="success">{t('endingnote-saved')}</Notice>}
      </div>
      <div role="alert">
        {status.kind === 'invalid' && <Notice $tone="attention">{t('endingnote-invalid')}</Notice>}
        {status.kind === 'failed' && (
          <Notice $tone="attention">{t('endingnote-save-failed')}</Notice>
        )}
        {status.kind === 'stale' && (
          <Notice $tone="attention">{t('endingnote-stale-section')}</Notice>
        )}
      </div>
      <Actions>
        {status.kind === 'stale' ? (
          <>
            <Button type="button" onClick={() => void overwrite()}>
              {t('endingnote-stale-overwrite')}
            </Button>
            <Button type="button" $variant="secondary" onClick={() => void showStored()}>
              {t('endingnote-stale-reload')}
            </Button>
          </>
        ) : (
          <Button type="submit" disabled={status.kind === 'saving'}>
            {t(status.kind === 'saving' ? 'endingnote-saving' : 'endingnote-save')}
          </Button>
        )}
      </Actions>
    </form>
  );
}
