import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Avatar } from '../../components/ui/Avatar';
import type { MemberCard } from '../../services/api/social';

const Row = styled.li`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 12px;
  padding: 12px 0;
  border-bottom: 1px solid ${({ theme }) => theme.colours.border};
  &:last-child {
    border-bottom: none;
  }
`;

const Names = styled.div`
  flex: 1 1 160px;
  min-width: 0;
  p {
    margin: 0;
  }
  small {
    color: ${({ theme }) => theme.colours.textMuted};
  }
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px;
`;

/** Family name first, as names are written in Japanese. */
export const fullName = (member: Pick<MemberCard, 'lastName' | 'firstName'>) =>
  `${member.lastName} ${member.firstName}`.trim();

/** One member in a social list: avatar, name with its reading, and what can be done. */
export function MemberRow({ member, children }: { member: MemberCard; children?: ReactNode }) {
  const name = fullName(member);
  return (
    <Row>
      <Avatar image={member.iconUrl} name={name} certificated={member.certificated} />
      <Names>
        <p>{name}</p>
        <small>{`${member.lastNameKana} ${member.firstNameKana}`.trim()}</small>
      </Names>
      {children && <Actions>{children}</Actions>}
    </Row>
  );
}

export const MemberList = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
`;
