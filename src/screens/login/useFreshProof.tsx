import { useCallback, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import styled from 'styled-components';
import { Button } from '../../components/ui/Button';
import { Modal } from '../../components/ui/Modal';
import { useT } from '../../i18n/useT';
import { isHttpError } from '../../services/http/lazy';
import { useSession } from '../../services/session/useSession';
import { PasswordField } from './authFormParts';

/** The member closed the dialog: nothing was changed, and nothing needs telling. */
export class ProofWithdrawn extends Error {
  constructor() {
    super('the member withdrew the change');
    this.name = 'ProofWithdrawn';
  }
}

/** What a sensitive change's call answered, read without axios. */
function answerOf(error: unknown): { status?: number; code?: string; fields: string[] } {
  if (!isHttpError(error)) return { fields: [] };
  const data = error.response?.data as
    { code?: string; errors?: { field: string; code: string }[] } | undefined;
  return {
    status: error.response?.status,
    code: data?.code,
    fields: (data?.errors ?? []).map((problem) => `${problem.field}:${problem.code}`),
  };
}

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  margin-top: 16px;
`;

type Asking =
  | { kind: 'password'; wrong: boolean; answer: (password: string | null) => void }
  | { kind: 'signIn'; answer: (password: string | null) => void };

/**
 * Sensitive changes (ending-note readers and visibility, death administrators, deletion)
 * need a fresh proof: `prove(run)` runs the change, and when the server asks for one it asks
 * the member — their current password in a dialog (again after a wrong one), or, for an
 * account without a password whose sign-in is older than 5 minutes, to sign in again. Render
 * `dialog` where the hook is used. Rejects with ProofWithdrawn when the member closes it.
 */
export function useFreshProof(): {
  prove: <T>(run: (currentPassword?: string) => Promise<T>) => Promise<T>;
  dialog: ReactNode;
} {
  const t = useT();
  const navigate = useNavigate();
  const { signOut } = useSession();
  const [asking, setAsking] = useState<Asking | null>(null);
  const [password, setPassword] = useState('');

  const ask = (kind: 'password' | 'signIn', wrong = false) =>
    new Promise<string | null>((resolve) => {
      setPassword('');
      setAsking(kind === 'password' ? { kind, wrong, answer: resolve } : { kind, answer: resolve });
    });

  const prove = useCallback(
    async <T,>(run: (currentPassword?: string) => Promise<T>): Promise<T> => {
      let currentPassword: string | undefined;
      for (;;) {
        try {
          const result = await run(currentPassword);
          setAsking(null);
          return result;
        } catch (error) {
          const answer = answerOf(error);
          let given: string | null;
          if (answer.status === 403 && answer.code === 'reauthentication_required') {
            given = await ask('password');
          } else if (answer.fields.includes('current_password:current_password_incorrect')) {
            given = await ask('password', true);
          } else if (answer.status === 403 && answer.code === 'recent_sign_in_required') {
            given = await ask('signIn');
          } else {
            setAsking(null);
            throw error;
          }
          if (given === null) {
            setAsking(null);
            throw new ProofWithdrawn();
          }
          currentPassword = given;
        }
      }
    },
    [],
  );

  const withdraw = () => asking?.answer(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!asking || password === '') return;
    asking.answer(password);
  };
  const signInAgain = async () => {
    const here = `${window.location.pathname}${window.location.search}`;
    withdraw();
    await signOut();
    void navigate(`/login?${new URLSearchParams({ callbackUrl: here }).toString()}`);
  };

  const dialog = (
    <Modal open={asking !== null} title={t('fresh-proof-title')} onClose={withdraw}>
      {asking?.kind === 'password' && (
        <form noValidate onSubmit={submit}>
          <p>{t('fresh-proof-password-lead')}</p>
          <PasswordField
            id="fresh-proof-password"
            label={t('mypage-current-password')}
            value={password}
            onChange={setPassword}
            error={asking.wrong ? t('validation-current_password_incorrect') : undefined}
            autoComplete="current-password"
          />
          <Actions>
            <Button type="submit">{t('fresh-proof-submit')}</Button>
            <Button type="button" $variant="secondary" onClick={withdraw}>
              {t('fresh-proof-cancel')}
            </Button>
          </Actions>
        </form>
      )}
      {asking?.kind === 'signIn' && (
        <>
          <p>{t('fresh-proof-sign-in-lead')}</p>
          <Actions>
            <Button type="button" onClick={() => void signInAgain()}>
              {t('fresh-proof-sign-in')}
            </Button>
            <Button type="button" $variant="secondary" onClick={withdraw}>
              {t('fresh-proof-cancel')}
            </Button>
          </Actions>
        </>
      )}
    </Modal>
  );
  return { prove, dialog };
}
