import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Banner } from '../../src/components/shell/Banner';
import { renderInApp } from './shellProviders';

/** jsdom lays nothing out: give the page a height, the window a size and a scroll position. */
function setPage({
  height,
  viewport,
  scrollY,
}: {
  height: number;
  viewport: number;
  scrollY: number;
}) {
  Object.defineProperty(document.documentElement, 'scrollHeight', {
    configurable: true,
    value: height,
  });
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: viewport });
  Object.defineProperty(window, 'scrollY', { configurable: true, value: scrollY });
}

function scrollTo(scrollY: number) {
  act(() => {
    Object.defineProperty(window, 'scrollY', { configurable: true, value: scrollY });
    window.dispatchEvent(new Event('scroll'));
  });
}

const banner = () => screen.queryByRole('complementary', { name: 'ログインと新規登録のご案内' });

afterEach(() => setPage({ height: 0, viewport: 768, scrollY: 0 }));

describe('guest banner', () => {
  it('offers login and registration while the page bottom is farther than 50 px', async () => {
    setPage({ height: 2000, viewport: 700, scrollY: 0 });
    renderInApp(<Banner pathname="/" />);
    const shown = await screen.findByRole('complementary');
    expect(shown.querySelector('a[href="/login"]')).not.toBeNull();
    expect(shown.querySelector('a[href="/register-top?register=true"]')).not.toBeNull();
    // 2000 - (1240 + 700) = 60 px left: still shown.
    scrollTo(1240);
    expect(banner()).not.toBeNull();
  });

  it('hides within 50 px of the page bottom and comes back above it', async () => {
    setPage({ height: 2000, viewport: 700, scrollY: 0 });
    renderInApp(<Banner pathname="/" />);
    await screen.findByRole('complementary');
    scrollTo(1250);
    // The scroll listener is attached by an effect that may run after the first paint; the
    // effect then reads the position itself, so the banner hides either way.
    await waitFor(() => expect(banner()).toBeNull());
    scrollTo(1300);
    expect(banner()).toBeNull();
    scrollTo(1000);
    expect(banner()).not.toBeNull();
  });

  it('is never shown on the configured pages', async () => {
    setPage({ height: 2000, viewport: 700, scrollY: 0 });
    renderInApp(
      <>
        <h1>login</h1>
        <Banner pathname="/login" />
      </>,
    );
    await screen.findByText('login');
    expect(banner()).toBeNull();
  });
});
