import { describe, expect, it, vi } from 'vitest';
import { announceSessionChange, watchSessionChanges } from '../../src/services/session/tabSync';

/** The module as another tab loads it: its own copy, with its own tab mark. */
async function otherTab() {
  vi.resetModules();
  return import('../../src/services/session/tabSync');
}

describe('session changes between tabs', () => {
  it('hears another tab announce a change, and a return to this tab', async () => {
    const other = await otherTab();
    const onChange = vi.fn();
    const stop = watchSessionChanges(onChange);

    other.announceSessionChange();
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));

    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(onChange).toHaveBeenCalledTimes(2);

    stop();
    document.dispatchEvent(new Event('visibilitychange'));
    expect(onChange).toHaveBeenCalledTimes(2);
  });

  it("does not refetch for this tab's own announcement", async () => {
    const other = await otherTab();
    const onChange = vi.fn();
    const stop = watchSessionChanges(onChange);

    announceSessionChange();
    // The other tab's announcement, sent after this tab's, arriving proves this tab's was delivered first.
    other.announceSessionChange();
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(onChange).toHaveBeenCalledTimes(1);
    stop();
  });
});
