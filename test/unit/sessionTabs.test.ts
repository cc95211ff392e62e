import { describe, expect, it, vi } from 'vitest';
import { announceSessionChange, watchSessionChanges } from '../../src/services/session/tabSync';

describe('session changes between tabs', () => {
  it('hears another tab announce a change, and a return to this tab', async () => {
    const onChange = vi.fn();
    const stop = watchSessionChanges(onChange);

    announceSessionChange();
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));

    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(onChange).toHaveBeenCalledTimes(2);

    stop();
    document.dispatchEvent(new Event('visibilitychange'));
    expect(onChange).toHaveBeenCalledTimes(2);
  });
});
