import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { UnsavedChangesDialog } from '../../components/form/UnsavedChangesDialog';
import { DateField, InputField } from '../../components/form/TextFields';
import { Button } from '../../components/ui/Button';
import { ImageFileField } from '../../components/upload/ImageFileField';
import { TransferProgress } from '../../components/upload/UploadProgress';
import { UploadCancelled, useUploadProgress } from '../../components/upload/useUploadProgress';
import { useT } from '../../i18n/useT';
import {
  addAlbumPhoto,
  deleteAlbumPhoto,
  memorialKeys,
  reorderAlbum,
  updateAlbumPhoto,
  type AlbumPhoto,
} from '../../services/api/memorial';
import { Grid, PhotoCaption, PhotoLink, usePhotoLabel } from './AlbumSection';
import {
  checkRequest,
  memorialSchemas,
  problemsOf,
  useProblemText,
  type Problems,
} from './inputProblems';
import { EditAndDelete, SmallButton } from './ListSection';
import { Actions, SectionTitle } from './sectionLayout';

/** Swaps a photo with its neighbour; answers the new order of ids. */
export function movedOrder(photos: AlbumPhoto[], index: number, by: -1 | 1): string[] {
  const ids = photos.map((photo) => photo.id);
  const target = index + by;
  if (target < 0 || target >= ids.length) return ids;
  [ids[index], ids[target]] = [ids[target]!, ids[index]!];
  return ids;
}

function UploadForm({ memorialPageId }: { memorialPageId: string }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [caption, setCaption] = useState('');
  const [takenOn, setTakenOn] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  // A new key empties the file input after an upload.
  const [formKey, setFormKey] = useState(0);
  const problem = useProblemText(problems);
  const transfer = useUploadProgress();

  const upload = useMutation({
    mutationFn: async () => {
      if (!file) throw new Error('no file');
      checkRequest((await memorialSchemas()).albumPhotoCreateSchema, {
        image_name: file.name,
        caption,
        taken_on: takenOn || null,
      });
      const imageName = await transfer.upload(file);
      return addAlbumPhoto(memorialPageId, { imageName, caption, takenOn: takenOn || null });
    },
    onSuccess: () => {
      setFile(null);
      setCaption('');
      setTakenOn('');
      setProblems({});
      setFormKey((key) => key + 1);
      return queryClient.invalidateQueries({ queryKey: memorialKeys.album(memorialPageId) });
    },
    // A cancelled upload keeps the form as it was, without a problem to show.
    onError: (error) => setProblems(error instanceof UploadCancelled ? {} : problemsOf(error)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setProblems({ image_name: 'upload_missing' });
      return;
    }
    upload.mutate();
  };
  const busy = upload.isPending;
  return (
    <form key={formKey} onSubmit={submit} noValidate aria-labelledby="memory-album-add-title">
      <SectionTitle as="h3" id="memory-album-add-title">
        {t('memory-album-add-title')}
      </SectionTitle>
      {problems.form && <p role="alert">{problem('form')}</p>}
      <ImageFileField
        id="memory-album-file"
        label={t('memory-album-file')}
        onChange={setFile}
        error={problem('image_name')}
        disabled={busy}
      />
      <InputField
        id="memory-album-caption"
        label={t('memory-album-caption')}
        value={caption}
        onChange={setCaption}
        error={problem('caption')}
        disabled={busy}
      />
      <DateField
        id="memory-album-taken-on"
        label={t('memory-album-taken-on')}
        value={takenOn}
        onChange={setTakenOn}
        error={problem('taken_on')}
        disabled={busy}
      />
      <TransferProgress transfer={transfer} />
      <Button type="submit" disabled={busy}>
        {busy ? t('memory-uploading') : t('memory-album-add')}
      </Button>
      <UnsavedChangesDialog when={file !== null || caption !== '' || takenOn !== ''} />
    </form>
  );
}

/** Caption and date of one photo, changed in place. */
function PhotoDetailsForm({
  photo,
  memorialPageId,
  onDone,
}: {
  photo: AlbumPhoto;
  memorialPageId: string;
  onDone: () => void;
}) {
  const t = useT();
  const queryClient = useQueryClient();
  const [caption, setCaption] = useState(photo.caption);
  const [takenOn, setTakenOn] = useState(photo.takenOn ?? '');
  const [problems, setProblems] = useState<Problems>({});
  const problem = useProblemText(problems);
  const save = useMutation({
    mutationFn: async () => {
      checkRequest((await memorialSchemas()).albumPhotoUpdateSchema, {
        caption,
        taken_on: takenOn || null,
      });
      return updateAlbumPhoto(memorialPageId, photo.id, { caption, takenOn: takenOn || null });
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: memorialKeys.album(memorialPageId) });
      onDone();
    },
    onError: (error) => setProblems(problemsOf(error)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const idPrefix = `memory-album-${photo.id}`;
  return (
    <form onSubmit={submit} noValidate>
      {problems.form && <p role="alert">{problem('form')}</p>}
      <InputField
        id={`${idPrefix}-caption`}
        label={t('memory-album-caption')}
        value={caption}
        onChange={setCaption}
        error={problem('caption')}
        disabled={save.isPending}
      />
      <DateField
        id={`${idPrefix}-taken-on`}
        label={t('memory-album-taken-on')}
        value={takenOn}
        onChange={setTakenOn}
        error={problem('taken_on')}
        disabled={save.isPending}
      />
      <Actions>
        <SmallButton type="submit" disabled={save.isPending}>
          {save.isPending ? t('memory-saving') : t('memory-save')}
        </SmallButton>
        <SmallButton type="button" $variant="secondary" disabled={save.isPending} onClick={onDone}>
          {t('memory-cancel')}
        </SmallButton>
      </Actions>
      <UnsavedChangesDialog
        when={!save.isPending && (caption !== photo.caption || takenOn !== (photo.takenOn ?? ''))}
      />
    </form>
  );
}

function EditablePhoto({
  photo,
  index,
  photos,
  memorialPageId,
}: {
  photo: AlbumPhoto;
  index: number;
  photos: AlbumPhoto[];
  memorialPageId: string;
}) {
  const t = useT();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: memorialKeys.album(memorialPageId) });
  const reorder = useMutation({
    mutationFn: (ids: string[]) => reorderAlbum(memorialPageId, ids),
    onSuccess: (album) => {
      queryClient.setQueryData(memorialKeys.album(memorialPageId), album);
      // The pages a reader sees follow the new order too.
      return queryClient.invalidateQueries({ queryKey: memorialKeys.albumPages(memorialPageId) });
    },
    onError: refresh,
  });
  const remove = useMutation({
    mutationFn: () => deleteAlbumPhoto(memorialPageId, photo.id),
    onSettled: refresh,
  });
  const label = usePhotoLabel(photo, index);
  const busy = reorder.isPending || remove.isPending;
  return (
    <li>
      <PhotoLink photo={photo} index={index} />
      {editing ? (
        <PhotoDetailsForm
          photo={photo}
          memorialPageId={memorialPageId}
          onDone={() => setEditing(false)}
        />
      ) : (
        <>
          <PhotoCaption photo={photo} />
          <Actions>
            <SmallButton
              type="button"
              $variant="secondary"
              disabled={busy || index === 0}
              aria-label={t('memory-album-move-earlier', { photo: label })}
              onClick={() => reorder.mutate(movedOrder(photos, index, -1))}
            >
              ←
            </SmallButton>
            <SmallButton
              type="button"
              $variant="secondary"
              disabled={busy || index === photos.length - 1}
              aria-label={t('memory-album-move-later', { photo: label })}
              onClick={() => reorder.mutate(movedOrder(photos, index, 1))}
            >
              →
            </SmallButton>
            <EditAndDelete
              small
              editLabel={t('memory-album-edit', { photo: label })}
              deleteLabel={t('memory-album-delete', { photo: label })}
              busy={busy}
              onEdit={() => setEditing(true)}
              onDelete={() => remove.mutate()}
            />
          </Actions>
        </>
      )}
    </li>
  );
}

/** The album as its admins see it: each photo with its controls, then the upload form. */
export function AlbumEditing({
  memorialPageId,
  photos,
}: {
  memorialPageId: string;
  photos: AlbumPhoto[];
}) {
  return (
    <>
      {photos.length > 0 && (
        <Grid>
          {photos.map((photo, index) => (
            <EditablePhoto
              key={photo.id}
              photo={photo}
              index={index}
              photos={photos}
              memorialPageId={memorialPageId}
            />
          ))}
        </Grid>
      )}
      <UploadForm memorialPageId={memorialPageId} />
    </>
  );
}
