import { useT } from '../../i18n/useT';

/**
 * What shows while the first screen's code arrives (a few ms from cache): a polite status
 * for assistive technology, nothing visible that would flash.
 */
export function RouteLoading() {
  const t = useT();
  return (
    <p role="status" style={{ position: 'absolute', left: -10000 }}>
      {t('route-loading')}
    </p>
  );
}
