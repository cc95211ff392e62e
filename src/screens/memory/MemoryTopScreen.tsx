import { Link } from 'react-router';
import styled from 'styled-components';
import { RouteLoading } from '../../components/shell/RouteLoading';
import { ButtonLink } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { useSession } from '../../services/session/useSession';
import { Page, Panel } from '../../components/ui/pageLayout';
import { itemsOf, unavailableReason, usePageLists, usePageQuery } from './pageQuery';
import { PageUnavailable } from './PageUnavailable';
import { memoryPath, pageName } from './memorialPageNames';
import { SectionTitle } from './sectionLayout';

const Steps = styled.ol`
  margin: 0;
  padding: 0;
  list-style: none;
  counter-reset: step;
  > li {
    display: grid;
    gap: 8px;
    padding: 16px 0;
    border-bottom: 1px solid ${({ theme }) => theme.colours.border};
  }
  > li:last-child {
    border-bottom: none;
  }
  h3 {
    margin: 0;
    font-size: 1.05rem;
  }
  p {
    margin: 0;
  }
`;

interface Step {
  key: 'photo' | 'history' | 'admin';
  done: boolean;
  section: string;
}

/**
 * /memory/top/me: the member's own page while it is still sparse. It guides,
 * calmly and one at a time, to the first photo, the first history entry and the first
 * invited admin, each done on the page itself.
 */
export function Component() {
  const t = useT();
  const { user, status } = useSession();
  const id = user?.memorialPageId ?? '';
  const page = usePageQuery(id);
  const { album, histories, admins } = usePageLists(id);
  if (status === 'unauthenticated') return <PageUnavailable reason="sign-in" />;
  if (status === 'authenticated' && !id) return <PageUnavailable reason="not-found" />;
  if (page.isError) return <PageUnavailable reason={unavailableReason(page.error)} />;
  if (!page.data || !album.data || !histories.data || !admins.data) return <RouteLoading />;

  const steps: Step[] = [
    { key: 'photo', done: itemsOf(album.data).length > 0, section: 'album' },
    { key: 'history', done: itemsOf(histories.data).length > 0, section: 'history' },
    { key: 'admin', done: admins.data.length > 1, section: 'share' },
  ];
  const next = steps.find((step) => !step.done);
  return (
    <Page>
      <h1>{t('memory-top-title')}</h1>
      <Panel>
        <p>{t('memory-top-lead', { name: pageName(page.data) })}</p>
        <ButtonLink to={memoryPath(id)} $variant="secondary">
          {t('memory-top-open-page')}
        </ButtonLink>
      </Panel>
      <Panel aria-labelledby="memory-top-steps-title">
        <SectionTitle id="memory-top-steps-title">{t('memory-top-steps-title')}</SectionTitle>
        <Steps>
          {steps.map((step, index) => (
            <li key={step.key}>
              <h3>
                {t('memory-top-step-heading', {
                  number: index + 1,
                  title: t(`memory-top-step-${step.key}`),
                })}
              </h3>
              <p>{t(`memory-top-step-${step.key}-text`)}</p>
              {step.done ? (
                <p role="status">{t('memory-top-step-done')}</p>
              ) : step === next ? (
                <ButtonLink to={`${memoryPath(id)}#${step.section}`}>
                  {t(`memory-top-step-${step.key}-action`)}
                </ButtonLink>
              ) : (
                <Link to={`${memoryPath(id)}#${step.section}`}>
                  {t(`memory-top-step-${step.key}-action`)}
                </Link>
              )}
            </li>
          ))}
        </Steps>
      </Panel>
      <Panel>
        <p>{t('memory-top-other-pages')}</p>
        <Link to="/memory/new">{t('memory-new-link')}</Link>
      </Panel>
    </Page>
  );
}
