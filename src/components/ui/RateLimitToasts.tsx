import { useEffect } from 'react';
import { useT } from '../../i18n/useT';
import { onRateLimited } from '../../services/http/rateLimitNotice';
import { showToast } from './toast';

/** Shows the rate-limit text as a toast whenever the server refuses a call as too frequent. */
export function RateLimitToasts() {
  const t = useT();
  useEffect(() => onRateLimited(() => void showToast(t('error-rate_limited'), 'error')), [t]);
  return null;
}
