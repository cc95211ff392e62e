import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MemberList, MemberRow } from '../../src/screens/connection/MemberRow';
import type { MemberCard } from '../../src/services/api/social';
import { renderInApp } from './shellProviders';

const member = (certificated: boolean | undefined): MemberCard => ({
  userId: 'u1',
  lastName: '山田',
  firstName: '太郎',
  lastNameKana: 'やまだ',
  firstNameKana: 'たろう',
  iconUrl: null,
  memorialPageId: null,
  certificated,
});

function renderRow(certificated: boolean | undefined) {
  renderInApp(
    <MemberList>
      <MemberRow member={member(certificated)} />
    </MemberList>,
  );
}

describe('a member in a list (search, connections, page admins)', () => {
  it('shows the certificated badge for a verified identity', async () => {
    renderRow(true);
    expect(await screen.findByAltText('本人確認済み')).toBeTruthy();
    expect(screen.queryByAltText('本人確認未完了')).toBeNull();
  });

  it('shows the uncertificated badge when the identity is not verified', async () => {
    renderRow(false);
    expect(await screen.findByAltText('本人確認未完了')).toBeTruthy();
    expect(screen.queryByAltText('本人確認済み')).toBeNull();
  });

  it('shows no badge where the list does not carry the flag', async () => {
    renderRow(undefined);
    await screen.findByAltText('山田 太郎 さんのプロフィール画像');
    expect(screen.queryByAltText('本人確認済み')).toBeNull();
    expect(screen.queryByAltText('本人確認未完了')).toBeNull();
  });
});
