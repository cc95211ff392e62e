import { useState } from 'react';
import styled from 'styled-components';
import { Avatar } from '../../components/ui/Avatar';
import { Button } from '../../components/ui/Button';
import { ImageFileField } from '../../components/upload/ImageFileField';
import { UploadProgress } from '../../components/upload/UploadProgress';
import { UploadCancelled, useUploadProgress } from '../../components/upload/useUploadProgress';
import { useT } from '../../i18n/useT';
import { UploadRefused } from '../../services/api/uploads';

const Chosen = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 12px 16px;
  margin: -8px 0 20px;
`;

/** The picture the member chose: its uploaded object name and a local preview of the file. */
export interface ChosenIcon {
  name: string;
  preview: string;
}

/**
 * The registration's optional profile picture (`userIconUrl`): uploaded at once
 * through the checked-image path without an account (the registration claims it), with its
 * progress and a cancel; a refusal is said under the field and the rest of the form stays.
 */
export function RegistrationIcon({
  icon,
  username,
  onChange,
  serverError,
}: {
  icon: ChosenIcon | null;
  /** Whose picture it is, for the preview's alternative text. */
  username: string;
  onChange: (icon: ChosenIcon | null) => void;
  /** The server's code for the field, when the registration itself refused the picture. */
  serverError?: string;
}) {
  const t = useT();
  const { progress, upload, cancel } = useUploadProgress();
  const [problem, setProblem] = useState<string | null>(null);
  const choose = async (file: File | null) => {
    setProblem(null);
    if (!file) return;
    try {
      const name = await upload(file);
      onChange({ name, preview: URL.createObjectURL(file) });
    } catch (error) {
      if (error instanceof UploadCancelled) return;
      const code = error instanceof UploadRefused ? error.code : null;
      // Without an account the limit is the registration icon's own (docs/uploads.md).
      setProblem(
        code === 'image_too_large'
          ? 'register-icon-too-large'
          : code
            ? `validation-${code}`
            : 'register-icon-failed',
      );
    }
  };
  const error = problem ? t(problem) : serverError ? t(`validation-${serverError}`) : undefined;
  return (
    <>
      <ImageFileField
        id="register-icon"
        label={t('register-icon')}
        onChange={(file) => void choose(file)}
        error={error}
        disabled={progress !== null}
      />
      {progress && (
        <UploadProgress fileName={progress.fileName} percent={progress.percent} onCancel={cancel} />
      )}
      {icon && !progress && (
        <Chosen>
          <Avatar image={icon.preview} name={username} size={64} smallSize={64} showBadge={false} />
          <Button type="button" $variant="secondary" onClick={() => onChange(null)}>
            {t('register-icon-remove')}
          </Button>
        </Chosen>
      )}
    </>
  );
}
