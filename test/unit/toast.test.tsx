import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { showToast } from '../../src/components/ui/toast';

describe('toasts', () => {
  it('show bottom-right above every layer and close after 3000 ms', async () => {
    await showToast('saved', 'success');
    const toast = await screen.findByText('saved');
    const container = toast.closest('.Toastify__toast-container') as HTMLElement;
    expect(container.className).toContain('Toastify__toast-container--bottom-right');
    expect(container.style.zIndex).toBe('10000000');
    const progress = container.querySelector<HTMLElement>('.Toastify__progress-bar');
    expect(progress?.style.animationDuration).toBe('3000ms');
  });
});
