import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { UnsavedChangesDialog } from '../../components/form/UnsavedChangesDialog';
import { Button } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { memorialKeys, updatePage, type MemorialPage } from '../../services/api/memorial';
import { TransferProgress } from '../../components/upload/UploadProgress';
import { UploadCancelled, useUploadProgress } from '../../components/upload/useUploadProgress';
import { updatePageSchema } from '../../../contract/rules/memorial';
import { checkRequest, problemsOf, type Problems } from './inputProblems';
import { SectionTitle } from './sectionLayout';
import {
  MemorialProfileForm,
  profileChanged,
  profileRequestOf,
  profileValuesOf,
  type ProfileValues,
} from './MemorialProfileForm';

/**
 * The admin's edit of the profile, in a chunk of its own (with the wire schemas and zod):
 * `ProfileSection` loads it only for `admin_edit`, so a visitor's page never fetches it.
 */
export function ProfileEditor({ page }: { page: MemorialPage }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState<ProfileValues>(() => profileValuesOf(page));
  const [problems, setProblems] = useState<Problems>({});
  const isPet = page.type === 'pet';
  const dirty = editing && profileChanged(values, profileValuesOf(page));

  const transfer = useUploadProgress();
  const save = useMutation({
    mutationFn: async () => {
      const request = profileRequestOf(values, isPet);
      checkRequest(updatePageSchema(), request);
      const photoName = values.photo ? await transfer.upload(values.photo) : undefined;
      return updatePage(page.memorialPageId, {
        ...request,
        ...(photoName ? { photo_name: photoName } : {}),
      });
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(memorialKeys.page(page.memorialPageId), saved);
      setValues(profileValuesOf(saved));
      setProblems({});
      setEditing(false);
    },
    onError: (error) => setProblems(error instanceof UploadCancelled ? {} : problemsOf(error)),
  });

  if (!editing) {
    return (
      <p>
        <Button type="button" $variant="secondary" onClick={() => setEditing(true)}>
          {t('memory-profile-edit')}
        </Button>
      </p>
    );
  }
  return (
    <>
      <SectionTitle>{t('memory-profile-edit-title')}</SectionTitle>
      <MemorialProfileForm
        idPrefix="memory-profile"
        isPet={isPet}
        values={values}
        onChange={setValues}
        problems={problems}
        busy={save.isPending}
        uploadProgress={<TransferProgress transfer={transfer} />}
        submitLabel={t('memory-save')}
        onSubmit={() => save.mutate()}
        onCancel={() => {
          setValues(profileValuesOf(page));
          setProblems({});
          setEditing(false);
        }}
      />
      <UnsavedChangesDialog when={dirty} />
    </>
  );
}
