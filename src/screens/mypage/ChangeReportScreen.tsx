import { useMutation } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Button, ButtonLink } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { reportChange } from '../../services/api/home';
import { isHttpError } from '../../services/http/lazy';
import { Actions, AuthCard, AuthPage, FormMessage } from '../login/authFormParts';

/**
 * /mypage/change-report?token=… — the link of a mail telling the member of a sensitive
 * change. It needs no sign-in (every session ends when it is used) and reports only when the
 * button is pressed, so a mail scanner that opens links changes nothing.
 */
export function Component() {
  const t = useT();
  const token = useSearchParams()[0].get('token') ?? '';
  const report = useMutation({ mutationFn: () => reportChange(token) });
  const status = isHttpError(report.error) ? report.error.response?.status : undefined;
  const failure =
    status === 400
      ? 'change-report-invalid'
      : status === 409
        ? 'change-report-superseded'
        : 'change-report-failed';
  return (
    <AuthPage>
      <h1>{t('change-report-title')}</h1>
      <AuthCard>
        {report.isSuccess ? (
          <FormMessage kind="info">
            {t('change-report-done')}
            {report.data.emailRestored && ` ${t('change-report-email-restored')}`}
          </FormMessage>
        ) : (
          <p>{t('change-report-lead')}</p>
        )}
        {report.isError && <FormMessage>{t(failure)}</FormMessage>}
        <Actions>
          {report.isSuccess ? (
            <ButtonLink to="/password-reset">{t('change-report-reset-link')}</ButtonLink>
          ) : (
            <Button
              type="button"
              disabled={!token || report.isPending}
              onClick={() => report.mutate()}
            >
              {t('change-report-submit')}
            </Button>
          )}
        </Actions>
      </AuthCard>
    </AuthPage>
  );
}
