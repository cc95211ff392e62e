import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import styled from 'styled-components';
import { UnsavedChangesDialog } from '../../components/form/UnsavedChangesDialog';
import { TextareaField } from '../../components/form/TextFields';
import { RouteLoading } from '../../components/shell/RouteLoading';
import { Button, ButtonLink } from '../../components/ui/Button';
import { ElapsedTime } from '../../components/ui/ElapsedTime';
import { useT } from '../../i18n/useT';
import {
  addCondolence,
  decideCondolence,
  fetchCondolences,
  memorialKeys,
  offerFlower,
  type Condolence,
  type MemorialPage,
} from '../../services/api/memorial';
import { useSession } from '../../services/session/useSession';
import { CONDOLENCE_MAX_LENGTH, condolenceCreateSchema } from '../../../contract/rules/memorial';
import { Page, Panel } from '../../components/ui/pageLayout';
import { unavailableReason, usePageQuery } from './pageQuery';
import { PageUnavailable } from './PageUnavailable';
import { checkRequest, problemsOf, useProblemText, type Problems } from './inputProblems';
import { memoryPath, pageName } from './memorialPageNames';
import { Actions, Muted, PlainList, SectionTitle } from './sectionLayout';

const Message = styled.li`
  padding: 12px 0;
  border-bottom: 1px solid ${({ theme }) => theme.colours.border};
  &:last-child {
    border-bottom: none;
  }
  p {
    margin: 4px 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  small {
    color: ${({ theme }) => theme.colours.textMuted};
  }
`;

const FlowerCount = styled.p`
  font-size: 1.25rem;
  font-weight: bold;
`;

function Flowers({ page, canOffer }: { page: MemorialPage; canOffer: boolean }) {
  const t = useT();
  const queryClient = useQueryClient();
  const offer = useMutation({
    mutationFn: () => offerFlower(page.memorialPageId),
    onSuccess: ({ flowerCount }) =>
      queryClient.setQueryData(memorialKeys.page(page.memorialPageId), {
        ...page,
        flowerCount,
      }),
  });
  return (
    <Panel aria-labelledby="mourning-flowers-title">
      <SectionTitle id="mourning-flowers-title">{t('mourning-flowers-title')}</SectionTitle>
      <FlowerCount role="status">
        {t('mourning-flower-count', { count: page.flowerCount })}
      </FlowerCount>
      {canOffer &&
        (offer.isSuccess ? (
          <p>{t('mourning-flower-offered')}</p>
        ) : (
          <Button type="button" disabled={offer.isPending} onClick={() => offer.mutate()}>
            {t('mourning-flower-offer')}
          </Button>
        ))}
      {offer.isError && <p role="alert">{t('mourning-action-failed')}</p>}
    </Panel>
  );
}

function CondolenceForm({ memorialPageId }: { memorialPageId: string }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [body, setBody] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const problem = useProblemText(problems);
  const send = useMutation({
    mutationFn: async () => {
      checkRequest(condolenceCreateSchema, { body });
      return addCondolence(memorialPageId, body.trim());
    },
    onSuccess: (message) => {
      setBody('');
      setProblems({});
      void queryClient.invalidateQueries({ queryKey: memorialKeys.condolences(memorialPageId) });
      return message;
    },
    onError: (error) => setProblems(problemsOf(error)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      {problems.form && <p role="alert">{problem('form')}</p>}
      <TextareaField
        id="mourning-condolence-body"
        label={t('mourning-condolence-body')}
        value={body}
        maxLength={CONDOLENCE_MAX_LENGTH}
        onChange={setBody}
        error={problem('body')}
        disabled={send.isPending}
      />
      <Button type="submit" disabled={send.isPending}>
        {t('mourning-condolence-send')}
      </Button>
      {send.isSuccess && (
        <p role="status">
          {t(
            send.data.status === 'approved'
              ? 'mourning-condolence-sent'
              : 'mourning-condolence-sent-pending',
          )}
        </p>
      )}
      <UnsavedChangesDialog when={body.trim() !== ''} />
    </form>
  );
}

function CondolenceItem({
  message,
  memorialPageId,
  isAdmin,
  now,
}: {
  message: Condolence;
  memorialPageId: string;
  isAdmin: boolean;
  now: Date;
}) {
  const t = useT();
  const queryClient = useQueryClient();
  const decide = useMutation({
    mutationFn: (status: 'approved' | 'hidden') =>
      decideCondolence(memorialPageId, message.id, status),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: memorialKeys.condolences(memorialPageId) }),
  });
  const author = `${message.authorLastName} ${message.authorFirstName}`.trim();
  return (
    <Message>
      <strong>{author}</strong> <ElapsedTime at={message.createdAt} now={now} />
      <p>{message.body}</p>
      {message.status !== 'approved' && <small>{t(`mourning-status-${message.status}`)}</small>}
      {/* An admin may approve what is not approved yet and hide what is not hidden yet. */}
      {isAdmin && (
        <Actions>
          {message.status !== 'approved' && (
            <Button
              type="button"
              disabled={decide.isPending}
              aria-label={t('mourning-approve-of', { author })}
              onClick={() => decide.mutate('approved')}
            >
              {t('mourning-approve')}
            </Button>
          )}
          {message.status !== 'hidden' && (
            <Button
              type="button"
              $variant="secondary"
              disabled={decide.isPending}
              aria-label={t('mourning-hide-of', { author })}
              onClick={() => decide.mutate('hidden')}
            >
              {t('mourning-hide')}
            </Button>
          )}
        </Actions>
      )}
    </Message>
  );
}

/**
 * /memory/{id}/mourning: flowers with their count and condolence messages (the guest book).
 * A visitor's message waits for an admin's approval; admins see the waiting ones and approve
 * or hide them; the server answers each reader only what they may see.
 */
export function Component() {
  const t = useT();
  const { id = '' } = useParams();
  const { status } = useSession();
  const page = usePageQuery(id);
  // One clock for the whole list, read when the screen opened.
  const [now] = useState(() => new Date());
  const condolences = useQuery({
    queryKey: memorialKeys.condolences(id),
    queryFn: () => fetchCondolences(id),
    enabled: page.isSuccess,
  });
  if (page.isError) return <PageUnavailable reason={unavailableReason(page.error)} />;
  if (!page.data) return <RouteLoading />;
  const signedIn = status === 'authenticated';
  const isAdmin = page.data.role === 'admin';
  const messages = condolences.data ?? [];
  const waiting = messages.filter((message) => message.status === 'pending').length;
  const name = pageName(page.data);
  return (
    <Page>
      <h1>{t('mourning-title', { name })}</h1>
      <p>
        <Link to={memoryPath(id)}>{t('mourning-back-to-page', { name })}</Link>
      </p>
      <Flowers page={page.data} canOffer={signedIn} />
      <Panel aria-labelledby="mourning-condolences-title">
        <SectionTitle id="mourning-condolences-title">
          {t('mourning-condolences-title')}
        </SectionTitle>
        {isAdmin && waiting > 0 && <p role="status">{t('mourning-waiting', { count: waiting })}</p>}
        {condolences.isError && <p role="alert">{t('memory-load-error')}</p>}
        {condolences.isSuccess && messages.length === 0 && (
          <Muted>{t('mourning-condolences-empty')}</Muted>
        )}
        <PlainList>
          {messages.map((message) => (
            <CondolenceItem
              key={message.id}
              message={message}
              memorialPageId={id}
              isAdmin={isAdmin}
              now={now}
            />
          ))}
        </PlainList>
      </Panel>
      <Panel aria-labelledby="mourning-write-title">
        <SectionTitle id="mourning-write-title">{t('mourning-write-title')}</SectionTitle>
        {signedIn ? (
          <CondolenceForm memorialPageId={id} />
        ) : (
          <>
            <p>{t('mourning-sign-in-to-write')}</p>
            <ButtonLink
              to={`/login?callbackUrl=${encodeURIComponent(`${memoryPath(id)}/mourning`)}`}
            >
              {t('memory-sign-in')}
            </ButtonLink>
          </>
        )}
      </Panel>
    </Page>
  );
}
