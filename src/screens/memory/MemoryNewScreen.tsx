import { useMachine } from '@xstate/react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import styled from 'styled-components';
import { fromPromise } from 'xstate';
import { UnsavedChangesDialog } from '../../components/form/UnsavedChangesDialog';
import { Button } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { memoryCreationMachine, type MemoryType } from '../../machines/memoryCreation';
import { createPage } from '../../services/api/memorial';
import { TransferProgress } from '../../components/upload/UploadProgress';
import { UploadCancelled, useUploadProgress } from '../../components/upload/useUploadProgress';
import { useSession } from '../../services/session/useSession';
import { createPageSchema } from '../../../contract/rules/memorial';
import { Page, Panel } from '../../components/ui/pageLayout';
import { PageUnavailable } from './PageUnavailable';
import { checkRequest, problemsOf, type Problems } from './inputProblems';
import { memoryPath } from './memorialPageNames';
import {
  emptyProfile,
  MemorialProfileForm,
  profileChanged,
  profileRequestOf,
  type ProfileValues,
} from './MemorialProfileForm';
import { inspectOption } from '../../services/clientState/inspector';

const TypeChoices = styled.div`
  display: grid;
  gap: 12px;
  button {
    width: 100%;
  }
`;

const MEMORY_TYPES: MemoryType[] = ['self', 'other', 'pet'];

/**
 * The creation chart with the real call and the router. The chart keeps the implementations
 * it was first given; the router's navigate stays the same function for the app's life.
 */
function useCreationMachine(ownMemorialPageId: string | null) {
  const navigate = useNavigate();
  const machine = memoryCreationMachine.provide({
    actors: {
      createMemorialPage: fromPromise(async ({ input }) => {
        const page = await createPage(input.type, input.profile);
        return { memorialPageId: page.memorialPageId };
      }),
    },
    actions: {
      openMemorialPage: (_, { memorialPageId }) =>
        void navigate(memoryPath(memorialPageId), { replace: true }),
    },
  });
  return useMachine(machine, { ...inspectOption(), input: { ownMemorialPageId } });
}

/**
 * /memory/new: a memorial page for another person (otherAdmin) or a pet, through the
 * memoryCreation chart; choosing one's own page opens it (it exists from registration).
 */
export function Component() {
  const t = useT();
  const { user, status } = useSession();
  const [snapshot, send] = useCreationMachine(user?.memorialPageId ?? null);
  const [values, setValues] = useState<ProfileValues>(emptyProfile);
  const [localProblems, setLocalProblems] = useState<Problems>({});
  const [uploading, setUploading] = useState(false);
  const transfer = useUploadProgress();
  const { type, fieldErrors, failed } = snapshot.context;
  const isPet = type === 'pet';
  const editing = snapshot.matches('editingProfile');

  const problems: Problems = {
    ...Object.fromEntries(fieldErrors.map(({ field, code }) => [field, code])),
    ...(failed ? { form: 'save_failed' } : {}),
    ...localProblems,
  };

  const submit = async () => {
    const profile = profileRequestOf(values, isPet);
    try {
      checkRequest(createPageSchema(), { ...profile, type: isPet ? 'pet' : 'other' });
      setUploading(true);
      const photoName = values.photo ? await transfer.upload(values.photo) : null;
      setLocalProblems({});
      send({
        type: 'SUBMIT',
        profile: photoName ? { ...profile, photo_name: photoName } : profile,
      });
    } catch (error) {
      // A cancelled upload keeps the form as it was, without a problem to show.
      setLocalProblems(error instanceof UploadCancelled ? {} : problemsOf(error));
    } finally {
      setUploading(false);
    }
  };

  if (status === 'unauthenticated') return <PageUnavailable reason="sign-in" />;
  if (snapshot.matches('choosingType')) {
    return (
      <Page>
        <h1>{t('memory-new-title')}</h1>
        <Panel>
          <p>{t('memory-new-lead')}</p>
          <TypeChoices>
            {MEMORY_TYPES.filter((choice) => choice !== 'self' || user?.memorialPageId).map(
              (choice) => (
                <Button
                  key={choice}
                  type="button"
                  $variant="secondary"
                  onClick={() => send({ type: 'CHOOSE', memoryType: choice })}
                >
                  {t(`memory-new-type-${choice}`)}
                </Button>
              ),
            )}
          </TypeChoices>
        </Panel>
      </Page>
    );
  }

  return (
    <Page>
      <h1>{t(isPet ? 'memory-new-pet-title' : 'memory-new-other-title')}</h1>
      <Panel>
        <p>{t(isPet ? 'memory-new-pet-lead' : 'memory-new-other-lead')}</p>
        <MemorialProfileForm
          idPrefix="memory-new"
          isPet={isPet}
          values={values}
          onChange={setValues}
          problems={problems}
          busy={uploading || !editing}
          uploadProgress={<TransferProgress transfer={transfer} />}
          submitLabel={t('memory-new-create')}
          onSubmit={() => void submit()}
          onCancel={() => {
            setValues(emptyProfile);
            setLocalProblems({});
            send({ type: 'BACK' });
          }}
        />
      </Panel>
      <UnsavedChangesDialog when={editing && !uploading && profileChanged(values, emptyProfile)} />
    </Page>
  );
}
