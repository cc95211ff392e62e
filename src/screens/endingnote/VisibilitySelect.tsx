import { useState } from 'react';
import styled from 'styled-components';
import { controlLook, Label } from '../../components/form/FieldFrame';
import { useT } from '../../i18n/useT';
import { setSectionVisibility, type SectionView } from '../../services/api/endingnote';
import { SECTION_VISIBILITIES, type SectionVisibility } from '../../../contract/rules/endingnote';
import { ProofWithdrawn, useFreshProof } from '../login/useFreshProof';

const Select = styled.select`
  ${controlLook}
`;

const Row = styled.div`
  margin-bottom: 24px;
  p {
    margin: 6px 0 0;
  }
`;

/** Who may read the section; applied at once, apart from the section's values. */
export function VisibilitySelect({
  userId,
  view,
  onChanged,
}: {
  userId: string;
  view: SectionView;
  onChanged: (view: SectionView) => void;
}) {
  const t = useT();
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  const id = `visibility-${view.section}`;
  const { prove, dialog } = useFreshProof();
  const change = async (visibility: SectionVisibility) => {
    setStatus('saving');
    try {
      onChanged(
        await prove((password) => setSectionVisibility(userId, view.section, visibility, password)),
      );
      setStatus('saved');
    } catch (error) {
      setStatus(error instanceof ProofWithdrawn ? 'idle' : 'failed');
    }
  };
  return (
    <Row>
      {dialog}
      <Label htmlFor={id}>{t('endingnote-visibility')}</Label>
      <Select
        id={id}
        value={view.visibility}
        disabled={status === 'saving'}
        onChange={(event) => void change(event.target.value as SectionVisibility)}
      >
        {SECTION_VISIBILITIES.map((visibility) => (
          <option key={visibility} value={visibility}>
            {t(`endingnote-visibility-${visibility}`)}
          </option>
        ))}
      </Select>
      <div aria-live="polite">
        {status === 'saved' && <p>{t('endingnote-visibility-saved')}</p>}
        {status === 'failed' && <p role="alert">{t('endingnote-save-failed')}</p>}
      </div>
    </Row>
  );
}
