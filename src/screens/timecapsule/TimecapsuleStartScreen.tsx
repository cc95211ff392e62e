import { ButtonLink } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { Actions, Page, Panel } from '../../components/ui/pageLayout';

const POINTS = ['when', 'who', 'after'] as const;

/**
 * /timecapsule: where a member without unsent letters begins (the menu entry's rule). Says
 * what a time capsule is and offers to write one; the lists stay one link away, for letters
 * received or administered.
 */
export function Component() {
  const t = useT();
  return (
    <Page>
      <h1>{t('timecapsule-start-title')}</h1>
      <Panel aria-labelledby="timecapsule-start-what">
        <h2 id="timecapsule-start-what">{t('timecapsule-start-what')}</h2>
        <p>{t('timecapsule-start-lead')}</p>
        <ul>
          {POINTS.map((point) => (
            <li key={point}>{t(`timecapsule-start-${point}`)}</li>
          ))}
        </ul>
        <Actions>
          <ButtonLink to="/timecapsule/new">{t('timecapsule-write')}</ButtonLink>
          <ButtonLink to="/timecapsule/list" $variant="secondary">
            {t('timecapsule-to-list')}
          </ButtonLink>
        </Actions>
      </Panel>
    </Page>
  );
}
