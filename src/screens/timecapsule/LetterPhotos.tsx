import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import styled from 'styled-components';
import { FieldFrame, Label } from '../../components/form/FieldFrame';
import { Button } from '../../components/ui/Button';
import { Notice } from '../../components/ui/Notice';
import { TransferProgress } from '../../components/upload/UploadProgress';
import { UploadCancelled, useUploadProgress } from '../../components/upload/useUploadProgress';
import { LETTER_MAX_PHOTOS } from '../../../contract/rules/timecapsule';
import { useT } from '../../i18n/useT';
import { UploadRefused } from '../../services/api/uploads';
import type { LetterDraft } from './letterDraft';
import { Section, type LetterFormPart } from './letterFormParts';

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

interface LetterPhotosProps extends LetterFormPart {
  /** Replaces the whole draft: the photos join the draft as it is when their upload ends. */
  onChange: (draft: LetterDraft) => void;
  uploading: boolean;
  onUploading: (uploading: boolean) => void;
}

/**
 * The letter's photos, uploaded one file at a time with its progress; a cancel or a refusal
 * keeps those already sent.
 */
export function LetterPhotos({
  draft,
  set,
  errorOf,
  onChange,
  uploading,
  onUploading,
}: LetterPhotosProps) {
  const t = useT();
  // The Fluent id of why the last upload failed.
  const [uploadProblem, setUploadProblem] = useState<string | null>(null);
  const transfer = useUploadProgress();
  // What the member types while photos upload stays: the photos join the latest draft.
  const latestDraft = useRef(draft);
  useEffect(() => {
    latestDraft.current = draft;
  }, [draft]);

  const addPhotos = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])].slice(0, LETTER_MAX_PHOTOS - draft.photos.length);
    event.target.value = '';
    if (files.length === 0) return;
    onUploading(true);
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
    onUploading(false);
  };

  return (
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
  );
}
