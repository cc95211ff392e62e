import { useMutation, useQueryClient } from '@tanstack/react-query';
import axios from 'axios';
import { useSearchParams } from 'react-router';
import { Button, ButtonLink } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { confirmEmailChange, homeKeys } from '../../services/api/home';
import { Actions, AuthCard, AuthPage, FormMessage } from '../login/authFormParts';

function failureText(error: unknown): string {
  const status = axios.isAxiosError(error) ? error.response?.status : undefined;
  if (status === 400) return 'mypage-email-confirm-invalid';
  if (status === 409) return 'mypage-email-confirm-taken';
  return 'mypage-save-failed';
}

/**
 * /mypage/email-confirm?token=… — the link mailed to the new address. It needs no sign-in
 * (it may be opened on another device) and changes the address only when the button is
 * pressed, so a mail scanner that opens links changes nothing.
 */
export function Component() {
  const t = useT();
  const token = useSearchParams()[0].get('token') ?? '';
  const queryClient = useQueryClient();
  const confirm = useMutation({
    mutationFn: () => confirmEmailChange(token),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: homeKeys.profile }),
  });
  return (
    <AuthPage>
      <h1>{t('mypage-email-confirm-title')}</h1>
      <AuthCard>
        {confirm.isSuccess ? (
          <FormMessage kind="info">
            {t('mypage-email-confirm-done', { email: confirm.data.email })}
          </FormMessage>
        ) : (
          <p>{t('mypage-email-confirm-text')}</p>
        )}
        {confirm.isError && <FormMessage>{t(failureText(confirm.error))}</FormMessage>}
        <Actions>
          {!confirm.isSuccess && (
            <Button
              type="button"
              disabled={!token || confirm.isPending}
              onClick={() => confirm.mutate()}
            >
              {t('mypage-email-confirm-button')}
            </Button>
          )}
          <ButtonLink to="/mypage" $variant="secondary">
            {t('mypage-title')}
          </ButtonLink>
        </Actions>
      </AuthCard>
    </AuthPage>
  );
}
