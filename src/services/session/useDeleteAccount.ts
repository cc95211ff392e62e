import { useCallback, useState } from 'react';
import { showToast } from '../../components/ui/toast';
import { useT } from '../../i18n/useT';
import { auth } from '../api/auth';
import { isQuietHttpError } from '../http';
import { firstVisit } from '../persistence/firstVisit';
import { useSession } from './useSession';

/**
 * Account deletion for the my page (spec §4, §8): DELETE /v1/user, then the user and the
 * tokens are cleared (sign-out) and the isFirstTimeUser flag removed. A failure shows
 * the deletion failure text (account-delete-failed) and keeps everything as it was. Resolves
 * true when deleted.
 */
export function useDeleteAccount(): { deleteAccount: () => Promise<boolean>; deleting: boolean } {
  const t = useT();
  const { signOut } = useSession();
  const [deleting, setDeleting] = useState(false);
  const deleteAccount = useCallback(async () => {
    setDeleting(true);
    try {
      await auth.deleteAccount();
    } catch (error) {
      if (!isQuietHttpError(error)) void showToast(t('account-delete-failed'), 'error');
      setDeleting(false);
      return false;
    }
    firstVisit.end();
    await signOut();
    setDeleting(false);
    return true;
  }, [signOut, t]);
  return { deleteAccount, deleting };
}
