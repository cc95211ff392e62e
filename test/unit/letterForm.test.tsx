import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { emptyDraft, type FieldProblem } from '../../src/screens/timecapsule/letterDraft';
import { LetterForm } from '../../src/screens/timecapsule/LetterForm';
import type { LetterInput } from '../../contract/rules/timecapsule';
import { renderInApp } from './shellProviders';

const FRIEND = '0b7d2c1e-4a5f-4c3b-9d8e-1f2a3b4c5d6e';

/** The compose form as the screen holds it: the draft and problems in state, sends recorded. */
function renderForm(serverProblems: FieldProblem[] = []) {
  const sent: LetterInput[] = [];
  function Host() {
    const [draft, setDraft] = useState(emptyDraft);
    const [problems, setProblems] = useState<FieldProblem[]>([]);
    return (
      <LetterForm
        draft={draft}
        onChange={setDraft}
        connections={[{ value: FRIEND, label: '手紙 受子' }]}
        problems={problems}
        onProblems={setProblems}
        onSubmit={async (input) => {
          sent.push(input);
          setProblems(serverProblems);
        }}
        submitting={false}
        submitLabel="この手紙を預ける"
      />
    );
  }
  renderInApp(<Host />);
  return sent;
}

// Typing through user-event is slow on a loaded machine; the steps are many, not slow ones.
const user = userEvent.setup({ delay: null });

describe('the compose form', () => {
  it('says what is missing in Japanese by each field and sends nothing', async () => {
    const sent = renderForm();
    await user.click(await screen.findByRole('button', { name: 'この手紙を預ける' }));
    expect(await screen.findByText('入力内容を確認してください。')).toBeTruthy();
    expect(screen.getByLabelText('件名').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('件名').getAttribute('aria-describedby')).toBe(
      'letter-title-error',
    );
    expect(document.getElementById('letter-title-error')?.textContent).toBe('入力してください。');
    expect(document.getElementById('letter-members-error')?.textContent).toBe('入力してください。');
    expect(sent).toEqual([]);
  });

  it('sends a letter to a connection and a guest, and shows the server problem on the guest row', async () => {
    const sent = renderForm([{ field: 'recipients.1.email', code: 'duplicate' }]);
    const members = await screen.findByRole('group', { name: 'つながりのある方から選ぶ' });
    await user.click(within(members).getByRole('checkbox', { name: '手紙 受子' }));
    await user.click(
      screen.getByRole('button', { name: 'まだ会員でない方をメールアドレスで加える' }),
    );
    const guest = screen.getByRole('group', { name: 'メールで届ける方 1' });
    await user.type(within(guest).getByLabelText('姓'), '未来');
    await user.type(within(guest).getByLabelText('名'), '花');
    await user.type(within(guest).getByLabelText('メールアドレス'), 'mirai@example.jp');
    await user.type(screen.getByLabelText('件名'), '春の手紙');
    await user.type(screen.getByLabelText('本文'), '桜のころに。');
    await user.click(screen.getByRole('radio', { name: /わたしの命日から決めた年数の後に届ける/ }));
    await user.type(screen.getByLabelText('ご命日から何年後に届けますか'), '6');
    expect(screen.getByText(/七回忌の日/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'この手紙を預ける' }));

    expect(sent).toEqual([
      {
        title: '春の手紙',
        body: '桜のころに。',
        recipients: [
          { kind: 'member', user_id: FRIEND },
          { kind: 'guest', last_name: '未来', first_name: '花', email: 'mirai@example.jp' },
        ],
        admin_user_ids: [],
        photo_names: [],
        delivery: { rule: 'death_anniversary', anniversary_years: 6 },
      },
    ]);
    const email = within(screen.getByRole('group', { name: 'メールで届ける方 1' })).getByLabelText(
      'メールアドレス',
    );
    expect(await screen.findByText('同じものが重複しています。')).toBeTruthy();
    expect(email.getAttribute('aria-describedby')).toBe('letter-guest-0-email-error');
    // What was typed stays.
    expect((email as HTMLInputElement).value).toBe('mirai@example.jp');
  });
});
