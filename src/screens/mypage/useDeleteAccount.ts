import { useCallback, useState } from 'react';
import { showToast } from '../../components/ui/toast';
import { useT } from '../../i18n/useT';
import { auth } from '../../services/api/auth';
import { isQuietHttpError } from '../../services/http';
import { useResetClientState } from '../../services/clientState/clientState';
import { firstVisit } from '../../services/persistence/firstVisit';
import { useSession } from '../../services/session/useSession';

/** Runs a sensitive change with the fresh proof the server asks for (useFreshProof). */
export type FreshProof = <T>(run: (currentPassword?: string) => Promise<T>) => Promise<T>;

/**
 * Account deletion for the my page: DELETE /v1/user, then the user and the
 * tokens are cleared (sign-out), the isFirstTimeUser flag removed and the client state reset
 * (nothing of the deleted member stays persisted on the device). A failure shows
 * the deletion failure text (account-delete-failed) and keeps everything as it was. Resolves
 * true when deleted.
 */
export function useDeleteAccount(): {
  deleteAccount: (prove: FreshProof) => Promise<boolean>;
  deleting: boolean;
} {
  const t = useT();
  const { signOut } = useSession();
  const resetClientState = useResetClientState();
  const [deleting, setDeleting] = useState(false);
  const deleteAccount = useCallback(
    async (prove: FreshProof) => {
      setDeleting(true);
      try {
        await prove((password) => auth.deleteAccount(password));
      } catch (error) {
        const withdrawn = error instanceof Error && error.name === 'ProofWithdrawn';
        if (!withdrawn && !isQuietHttpError(error)) {
          void showToast(t('account-delete-failed'), 'error');
        }
        setDeleting(false);
        return false;
      }
      firstVisit.end();
      await signOut();
      resetClientState();
      setDeleting(false);
      return true;
    },
    [resetClientState, signOut, t],
  );
  return { deleteAccount, deleting };
}
