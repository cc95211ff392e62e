import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Badge, badgeText } from '../../src/components/ui/Badge';
import { renderInApp } from './shellProviders';

describe('unread badge', () => {
  it('is hidden at 0, shows the number up to 99 and 99+ above', () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(-1)).toBeNull();
    expect(badgeText(1)).toBe('1');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
    expect(badgeText(12345)).toBe('99+');
  });

  it('renders nothing for no unread items', async () => {
    renderInApp(
      <p>
        bell
        <Badge count={0} />
      </p>,
    );
    expect(await screen.findByText('bell')).toBeTruthy();
    expect(screen.queryByLabelText(/未読/)).toBeNull();
  });

  it('announces the capped count', async () => {
    renderInApp(<Badge count={150} />);
    const badge = await screen.findByLabelText('未読 99+ 件');
    expect(badge.textContent).toBe('99+');
  });
});
