import styled from 'styled-components';
import { useT } from '../../i18n/useT';
import { footerEntries } from './menu';
import { MenuLink } from './MenuLink';

const Bar = styled.footer`
  padding: 24px 16px;
  background: ${({ theme }) => theme.colours.surface};
  border-top: 1px solid ${({ theme }) => theme.colours.border};
  font-size: 0.85rem;
  text-align: center;
`;

const Links = styled.ul`
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: 4px 16px;
  list-style: none;
  margin: 0 0 12px;
  padding: 0;
`;

const Policy = styled(MenuLink)`
  display: inline-flex;
  align-items: center;
  gap: 2px;
  min-height: 44px;
  color: ${({ theme }) => theme.colours.text};
`;

const Copyright = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colours.textMuted};
`;

/** The policy links (each a new tab) and the company copyright line. */
export function Footer({ year }: { year: number }) {
  const t = useT();
  return (
    <Bar>
      <nav aria-label={t('footer-label')}>
        <Links>
          {footerEntries.map((entry) => (
            <li key={entry.id}>
              <Policy entry={entry} />
            </li>
          ))}
        </Links>
      </nav>
      <Copyright>{t('footer-copyright', { year: String(year) })}</Copyright>
    </Bar>
  );
}
