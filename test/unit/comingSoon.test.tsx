import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RouteLoading } from '../../src/components/shell/RouteLoading';
import { comingSoon } from '../../src/screens/comingSoon/lazyComingSoon';
import { renderRoutes } from './shellProviders';

describe('coming-soon screen', () => {
  it('names the screen and says plainly that it is being prepared', async () => {
    renderRoutes(
      [{ path: '/mypage', lazy: comingSoon('mypage'), HydrateFallback: RouteLoading }],
      '/mypage',
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'マイページ' })).toBeTruthy();
    expect(
      screen.getByText('この機能は現在準備中です。公開まで今しばらくお待ちください。'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'トップページへ戻る' }).getAttribute('href')).toBe('/');
  });
});
