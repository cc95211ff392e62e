import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { Choice } from '../../components/form/ChoiceFields';
import { UnsavedChangesDialog } from '../../components/form/UnsavedChangesDialog';
import { useTimecapsuleLettersChanged } from '../../components/shell/useMenuNavigation';
import { useT } from '../../i18n/useT';
import { fetchConnections, socialKeys } from '../../services/api/social';
import {
  createLetter,
  fetchLetter,
  timecapsuleKeys,
  updateLetter,
  type LetterSaveOutcome,
} from '../../services/api/timecapsule';
import type { LetterInput } from '../../../contract/rules/timecapsule';
import type { WriterView } from '../../../contract/timecapsule';
import { Page, Panel } from '../../components/ui/pageLayout';
import { Notice } from '../../components/ui/Notice';
import { letterPath } from './letterPaths';
import { draftOf, emptyDraft, sameLetter, type FieldProblem } from './letterDraft';
import { LetterForm } from './LetterForm';
import { personName } from './letterText';

/**
 * The people a letter already names who are no longer connections still appear (so that an
 * edit does not drop them unseen); the server then asks to choose among connections.
 */
function choicesFor(
  t: ReturnType<typeof useT>,
  connections: Choice[],
  letter: WriterView | undefined,
): Choice[] {
  if (!letter) return connections;
  const known = new Set(connections.map((choice) => choice.value));
  const named = [
    ...letter.recipients.flatMap((r) =>
      r.kind === 'member' && r.userId ? [{ userId: r.userId, name: personName(t, r) }] : [],
    ),
    ...letter.adminUserIds.map((userId, index) => ({
      userId,
      name: personName(t, {
        lastName: letter.adminLastNames[index] ?? '',
        firstName: letter.adminFirstNames[index] ?? '',
      }),
    })),
  ];
  const missing = new Map<string, Choice>();
  for (const { userId, name } of named) {
    if (!known.has(userId))
      missing.set(userId, { value: userId, label: t('timecapsule-form-not-connected', { name }) });
  }
  return [...connections, ...missing.values()];
}

type Status = 'editing' | 'saving' | 'failed' | 'delivered';

/** The form once what it edits is known: a new letter, or the writer's unsent letter. */
function Composer({ letter, connections }: { letter?: WriterView; connections: Choice[] }) {
  const t = useT();
  const navigate = useNavigate();
  const lettersChanged = useTimecapsuleLettersChanged();
  const queryClient = useQueryClient();
  const [initial] = useState(() => (letter ? draftOf(letter) : emptyDraft()));
  const [draft, setDraft] = useState(initial);
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [status, setStatus] = useState<Status>('editing');
  const [savedId, setSavedId] = useState<string | null>(null);
  const dirty = savedId === null && !sameLetter(draft, initial);

  // Leaves once the guard has seen that nothing is unsaved any more (after the save rendered).
  useEffect(() => {
    if (savedId) void navigate(letterPath(savedId), { replace: true });
  }, [navigate, savedId]);

  const submit = async (input: LetterInput) => {
    setStatus('saving');
    let outcome: LetterSaveOutcome;
    try {
      outcome = letter
        ? await updateLetter(letter.timeCapsuleLetterId, input)
        : await createLetter(input);
    } catch {
      setStatus('failed');
      return;
    }
    if (outcome.kind === 'saved') {
      void queryClient.invalidateQueries({ queryKey: timecapsuleKeys.lists });
      lettersChanged();
      setSavedId(outcome.letterId);
    } else if (outcome.kind === 'invalid') {
      setProblems(outcome.problems);
      setStatus('editing');
    } else {
      setStatus('delivered');
    }
  };

  return (
    <>
      <div role="alert">
        {status === 'failed' && <Notice $tone="attention">{t('timecapsule-save-failed')}</Notice>}
        {status === 'delivered' && (
          <Notice $tone="attention">{t('timecapsule-already-delivered')}</Notice>
        )}
      </div>
      <LetterForm
        draft={draft}
        onChange={(next) => {
          setDraft(next);
          if (status !== 'saving') setStatus('editing');
        }}
        connections={choicesFor(t, connections, letter)}
        problems={problems}
        onProblems={setProblems}
        onSubmit={submit}
        submitting={status === 'saving'}
        submitLabel={t(letter ? 'timecapsule-form-update' : 'timecapsule-form-create')}
      />
      <UnsavedChangesDialog when={dirty} />
    </>
  );
}

/**
 * /timecapsule/new and /timecapsule/edit/{letterId}: writing a letter, or changing
 * one of one's own unsent letters (a delivered letter never changes).
 */
export function Component() {
  const t = useT();
  const letterId = useParams().letterId;
  const connections = useQuery({ queryKey: socialKeys.connections, queryFn: fetchConnections });
  const letter = useQuery({
    queryKey: timecapsuleKeys.letter(letterId ?? ''),
    queryFn: () => fetchLetter(letterId!),
    enabled: letterId !== undefined,
    // Always the stored letter: an edit starts from what the server holds now.
    staleTime: 0,
    gcTime: 0,
  });
  const title = t(letterId ? 'timecapsule-edit-title' : 'timecapsule-new-title');
  const loading = connections.isPending || (letterId !== undefined && letter.isPending);
  const failed = connections.isError || letter.isError;
  const view = letter.data;
  const notEditable = view !== undefined && (view.role !== 'writer' || view.deliveredAt !== null);

  const choices = (connections.data ?? []).map((member) => ({
    value: member.userId,
    label: personName(t, member),
  }));

  return (
    <Page aria-busy={loading}>
      <h1>{title}</h1>
      <p>{t('timecapsule-form-lead')}</p>
      {loading && <p>{t('timecapsule-loading')}</p>}
      {failed && <p role="alert">{t('timecapsule-load-failed')}</p>}
      {notEditable && (
        <Panel>
          <p role="alert">{t('timecapsule-not-editable')}</p>
          <Link to={letterPath(letterId!)}>{t('timecapsule-back-to-letter')}</Link>
        </Panel>
      )}
      {!loading && !failed && !notEditable && (
        <Panel>
          <Composer letter={view?.role === 'writer' ? view : undefined} connections={choices} />
        </Panel>
      )}
    </Page>
  );
}
