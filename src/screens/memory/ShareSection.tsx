import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import styled from 'styled-components';
import { CheckboxField } from '../../components/form/ChoiceFields';
import { controlLook, Label } from '../../components/form/FieldFrame';
import { Button } from '../../components/ui/Button';
import { showToast } from '../../components/ui/toast';
import { useT } from '../../i18n/useT';
import { createShareToken, type MemorialPage } from '../../services/api/memorial';
import { bridge, cancelledInApp, isAppWebView } from '../../services/bridge';
import { Panel } from '../../components/ui/pageLayout';
import { invitationUrl, lineShareUrl } from './invitationLink';
import { pageName } from './memorialPageNames';
import { Actions, Muted, SectionTitle } from './sectionLayout';

const LinkBox = styled.input`
  ${controlLook}
  margin-bottom: 12px;
`;

// LINE green marks the link; the text keeps the theme's contrast (as the sign-in buttons do).
const LineLink = styled.a`
  display: inline-flex;
  align-items: center;
  min-height: 44px;
  padding: 10px 24px;
  border-radius: 999px;
  font-weight: bold;
  text-decoration: none;
  background: ${({ theme }) => theme.colours.surface};
  color: ${({ theme }) => theme.colours.text};
  border: 2px solid ${({ theme }) => theme.social.line};
`;

/**
 * Invitation links: with or without becoming an admin, copied, or shared by LINE (a browser)
 * or the app's share sheet (the app's web view, where a new tab leads nowhere).
 */
export function ShareSection({ page }: { page: MemorialPage }) {
  const t = useT();
  const [setAdmin, setSetAdmin] = useState(true);
  const create = useMutation({
    mutationFn: () => createShareToken(page.memorialPageId, setAdmin),
    onError: () => void showToast(t('memory-share-failed'), 'error'),
  });
  const url = create.data
    ? invitationUrl(window.location.origin, create.data, page.type === 'pet')
    : null;
  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      void showToast(t('memory-share-copied'), 'success');
    } catch {
      void showToast(t('memory-share-copy-failed'), 'error');
    }
  };
  const shareInApp = async () => {
    if (!url) return;
    try {
      await bridge.call('share', {
        url,
        title: t('memory-share-app-title', { name: pageName(page) }),
      });
    } catch (error) {
      if (!cancelledInApp(error)) void showToast(t('memory-share-app-failed'), 'error');
    }
  };
  return (
    <Panel id="share" aria-labelledby="memory-share-title">
      <SectionTitle id="memory-share-title">{t('memory-share-title')}</SectionTitle>
      <Muted>{t('memory-share-lead')}</Muted>
      <CheckboxField
        id="memory-share-set-admin"
        label={t('memory-share-set-admin')}
        value={setAdmin}
        onChange={(value) => {
          setSetAdmin(value);
          create.reset();
        }}
        disabled={create.isPending}
      />
      <p>
        <Button type="button" disabled={create.isPending} onClick={() => create.mutate()}>
          {t('memory-share-create')}
        </Button>
      </p>
      {url && (
        <>
          <Label htmlFor="memory-share-url">{t('memory-share-url')}</Label>
          <LinkBox
            id="memory-share-url"
            readOnly
            value={url}
            onFocus={(event) => event.target.select()}
          />
          <Muted>{t('memory-share-expiry')}</Muted>
          <Actions>
            <Button type="button" $variant="secondary" onClick={() => void copy()}>
              {t('memory-share-copy')}
            </Button>
            {isAppWebView() ? (
              <Button type="button" onClick={() => void shareInApp()}>
                {t('memory-share-app')}
              </Button>
            ) : (
              <LineLink href={lineShareUrl(url)} target="_blank" rel="noreferrer">
                {t('memory-share-line')}
              </LineLink>
            )}
          </Actions>
        </>
      )}
    </Panel>
  );
}
