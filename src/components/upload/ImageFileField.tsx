import styled from 'styled-components';
import { describedBy, FieldFrame, Label } from '../form/FieldFrame';

const FileInput = styled.input`
  display: block;
  max-width: 100%;
  min-height: 44px;
`;

/** One image file from the device (a photo or an icon); its bytes are checked by the server. */
export function ImageFileField({
  id,
  label,
  onChange,
  error,
  disabled,
}: {
  id: string;
  label: string;
  onChange: (file: File | null) => void;
  error?: string;
  disabled?: boolean;
}) {
  return (
    <FieldFrame id={id} error={error}>
      <Label htmlFor={id}>{label}</Label>
      <FileInput
        id={id}
        type="file"
        accept="image/jpeg,image/png,image/webp"
        disabled={disabled}
        onChange={(event) => onChange(event.target.files?.[0] ?? null)}
        {...describedBy(id, error)}
      />
    </FieldFrame>
  );
}
