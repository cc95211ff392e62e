import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Modal } from '../../src/components/ui/Modal';
import { renderInApp } from './shellProviders';

function swipe(element: HTMLElement, from: number, to: number) {
  fireEvent.pointerDown(element, { clientX: from, clientY: 200 });
  fireEvent.pointerUp(element, { clientX: to, clientY: 200 });
}

describe('modal', () => {
  it('sits on the portal layer, takes focus and closes on a 50 px horizontal swipe', async () => {
    const onClose = vi.fn();
    renderInApp(
      <Modal open title="Notice" onClose={onClose}>
        <button type="button">OK</button>
      </Modal>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Notice' });
    expect(getComputedStyle(dialog.parentElement!).zIndex).toBe('1000000');
    // Focus moves in an effect after the dialog's first paint.
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    swipe(dialog, 100, 149);
    expect(onClose).not.toHaveBeenCalled();
    swipe(dialog, 100, 50);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes on Escape and on its close button', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderInApp(
      <Modal open title="Notice" onClose={onClose}>
        <p>text</p>
      </Modal>,
    );
    const dialog = await screen.findByRole('dialog');
    // Escape reaches the dialog once its effect has moved the focus inside.
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: '閉じる' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('offers no close button when closing is not allowed', async () => {
    renderInApp(
      <Modal open title="Required step">
        <button type="button">Continue</button>
      </Modal>,
    );
    await screen.findByRole('dialog', { name: 'Required step' });
    expect(screen.queryByRole('button', { name: '閉じる' })).toBeNull();
  });
});
