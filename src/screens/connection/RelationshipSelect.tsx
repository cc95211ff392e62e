import { useId } from 'react';
import styled from 'styled-components';
import { visuallyHidden } from '../../components/ui/visuallyHidden';
import { useT } from '../../i18n/useT';
import { RELATIONSHIP_VALUES, type RelationshipValue } from '../../../contract/rules/social';

const Select = styled.select`
  min-height: 44px;
  padding: 0 8px;
  border-radius: 8px;
  border: 1px solid ${({ theme }) => theme.colours.border};
  background: ${({ theme }) => theme.colours.surface};
  color: ${({ theme }) => theme.colours.text};
`;

const VisuallyHidden = styled.label`
  ${visuallyHidden}
`;

/** The five relationships (Fluent `relationship-*`), labelled for the member named. */
export function RelationshipSelect({
  label,
  value,
  onChange,
  disabled,
}: {
  label: string;
  value: RelationshipValue;
  onChange: (value: RelationshipValue) => void;
  disabled?: boolean;
}) {
  const t = useT();
  const id = useId();
  return (
    <>
      <VisuallyHidden htmlFor={id}>{label}</VisuallyHidden>
      <Select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value as RelationshipValue)}
      >
        {RELATIONSHIP_VALUES.map((relationship) => (
          <option key={relationship} value={relationship}>
            {t(`relationship-${relationship}`)}
          </option>
        ))}
      </Select>
    </>
  );
}
