import styled from 'styled-components';
import { useT } from '../../i18n/useT';
import type { MemberName, SectionView } from '../../services/api/endingnote';
import { fieldValueText, sectionDefinition } from '../../../contract/rules/endingnote';

const List = styled.dl`
  margin: 0;
  dt {
    font-weight: bold;
    margin-top: 12px;
  }
  dd {
    margin: 4px 0 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
`;

const Empty = styled.span`
  color: ${({ theme }) => theme.colours.textMuted};
`;

/** A section as a designated reader sees it: every field's label and what it says. */
export function SectionReadOnly({ view, members }: { view: SectionView; members: MemberName[] }) {
  const t = useT();
  const section = sectionDefinition(view.section)!;
  const nameOf = (userId: string) => {
    const member = members.find((candidate) => candidate.userId === userId);
    return member && t('endingnote-member-name', { ...member });
  };
  return (
    <List>
      {section.fields.map((field) => {
        const text = fieldValueText(t, section.code, field, view.values[field.code]!, nameOf);
        return [
          <dt key={`${field.code}-label`}>{t(`endingnote-${section.code}-${field.code}`)}</dt>,
          <dd key={`${field.code}-value`}>{text || <Empty>{t('endingnote-empty')}</Empty>}</dd>,
        ];
      })}
    </List>
  );
}
