import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { CheckboxField } from '../../components/form/ChoiceFields';
import { UnsavedChangesDialog } from '../../components/form/UnsavedChangesDialog';
import { DateField, TextareaField } from '../../components/form/TextFields';
import { Button } from '../../components/ui/Button';
import { formatCalendarDate } from '../../components/ui/calendarDate';
import { ImageFileField } from '../../components/upload/ImageFileField';
import { TransferProgress } from '../../components/upload/UploadProgress';
import { UploadCancelled, useUploadProgress } from '../../components/upload/useUploadProgress';
import { HISTORY_BODY_MAX_LENGTH } from '../../../contract/rules/memorialLimits';
import { useT } from '../../i18n/useT';
import {
  addHistory,
  deleteHistory,
  memorialKeys,
  updateHistory,
  type HistoryEntry,
  type HistoryInput,
} from '../../services/api/memorial';
import { EntryView, Timeline } from './HistorySection';
import {
  checkRequest,
  memorialSchemas,
  problemsOf,
  useProblemText,
  type Problems,
} from './inputProblems';
import { EditAndDelete } from './ListSection';
import { Actions, SectionTitle } from './sectionLayout';

interface Draft {
  occurredOn: string;
  body: string;
  photo: File | null;
  removePhoto: boolean;
}

const emptyDraft: Draft = { occurredOn: '', body: '', photo: null, removePhoto: false };

/** Add (no entry) or edit (an entry) one dated timeline entry with an optional photo. */
function HistoryForm({
  memorialPageId,
  entry,
  onDone,
}: {
  memorialPageId: string;
  entry?: HistoryEntry;
  onDone?: () => void;
}) {
  const t = useT();
  const queryClient = useQueryClient();
  const initial: Draft = entry
    ? { occurredOn: entry.occurredOn, body: entry.body, photo: null, removePhoto: false }
    : emptyDraft;
  const [draft, setDraft] = useState<Draft>(initial);
  const [problems, setProblems] = useState<Problems>({});
  const [formKey, setFormKey] = useState(0);
  const problem = useProblemText(problems);
  const idPrefix = `memory-history-${entry?.id ?? 'new'}`;
  const dirty =
    draft.occurredOn !== initial.occurredOn ||
    draft.body !== initial.body ||
    draft.photo !== null ||
    draft.removePhoto;

  const transfer = useUploadProgress();
  const save = useMutation({
    mutationFn: async () => {
      checkRequest((await memorialSchemas()).historyCreateSchema, {
        occurred_on: draft.occurredOn,
        body: draft.body,
      });
      const input: HistoryInput = { occurredOn: draft.occurredOn, body: draft.body.trim() };
      if (draft.photo) input.imageName = await transfer.upload(draft.photo);
      else if (draft.removePhoto) input.imageName = null;
      return entry
        ? updateHistory(memorialPageId, entry.id, input)
        : addHistory(memorialPageId, input);
    },
    onSuccess: async () => {
      setProblems({});
      setDraft(emptyDraft);
      setFormKey((key) => key + 1);
      await queryClient.invalidateQueries({ queryKey: memorialKeys.histories(memorialPageId) });
      onDone?.();
    },
    // A cancelled upload keeps the form as it was, without a problem to show.
    onError: (error) => setProblems(error instanceof UploadCancelled ? {} : problemsOf(error)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const busy = save.isPending;
  return (
    <form key={formKey} onSubmit={submit} noValidate>
      {problems.form && <p role="alert">{problem('form')}</p>}
      <DateField
        id={`${idPrefix}-date`}
        label={t('memory-history-date')}
        value={draft.occurredOn}
        onChange={(occurredOn) => setDraft({ ...draft, occurredOn })}
        error={problem('occurred_on')}
        disabled={busy}
      />
      <TextareaField
        id={`${idPrefix}-body`}
        label={t('memory-history-body')}
        value={draft.body}
        maxLength={HISTORY_BODY_MAX_LENGTH}
        onChange={(body) => setDraft({ ...draft, body })}
        error={problem('body')}
        disabled={busy}
      />
      <ImageFileField
        id={`${idPrefix}-photo`}
        label={t('memory-history-photo')}
        onChange={(photo) => setDraft({ ...draft, photo })}
        error={problem('image_name')}
        disabled={busy}
      />
      <TransferProgress transfer={transfer} />
      {entry?.imageName && (
        <CheckboxField
          id={`${idPrefix}-remove-photo`}
          label={t('memory-history-remove-photo')}
          value={draft.removePhoto}
          onChange={(removePhoto) => setDraft({ ...draft, removePhoto })}
          disabled={busy || draft.photo !== null}
        />
      )}
      <Actions>
        <Button type="submit" disabled={busy}>
          {busy ? t('memory-saving') : t(entry ? 'memory-save' : 'memory-history-add')}
        </Button>
        {onDone && (
          <Button type="button" $variant="secondary" disabled={busy} onClick={onDone}>
            {t('memory-cancel')}
          </Button>
        )}
      </Actions>
      <UnsavedChangesDialog when={dirty} />
    </form>
  );
}

function EditableEntry({ entry, memorialPageId }: { entry: HistoryEntry; memorialPageId: string }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteHistory(memorialPageId, entry.id),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: memorialKeys.histories(memorialPageId) }),
  });
  const date = formatCalendarDate(entry.occurredOn);
  if (editing) {
    return (
      <li>
        <HistoryForm
          memorialPageId={memorialPageId}
          entry={entry}
          onDone={() => setEditing(false)}
        />
      </li>
    );
  }
  return (
    <li>
      <EntryView entry={entry} />
      <Actions>
        <EditAndDelete
          editLabel={t('memory-history-edit', { date })}
          deleteLabel={t('memory-history-delete', { date })}
          busy={remove.isPending}
          onEdit={() => setEditing(true)}
          onDelete={() => remove.mutate()}
        />
      </Actions>
    </li>
  );
}

/**
 * The history as its admins see it: each entry shown so far with its controls, `more` (the
 * next page's button), then the form to add one.
 */
export function HistoryEditing({
  memorialPageId,
  entries,
  more,
}: {
  memorialPageId: string;
  entries: HistoryEntry[];
  more: ReactNode;
}) {
  const t = useT();
  return (
    <>
      {entries.length > 0 && (
        <Timeline>
          {entries.map((entry) => (
            <EditableEntry key={entry.id} entry={entry} memorialPageId={memorialPageId} />
          ))}
        </Timeline>
      )}
      {more}
      <SectionTitle as="h3">{t('memory-history-add-title')}</SectionTitle>
      <HistoryForm memorialPageId={memorialPageId} />
    </>
  );
}
