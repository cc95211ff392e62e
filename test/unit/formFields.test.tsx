import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { ThemeProvider } from 'styled-components';
import { describe, expect, it } from 'vitest';
import {
  CheckboxField,
  ChecklistField,
  DropdownField,
  RadioField,
  UserSelectField,
} from '../../src/components/form/ChoiceFields';
import type { FieldProps } from '../../src/components/form/FieldFrame';
import {
  DateField,
  InputField,
  LinkField,
  TextareaField,
} from '../../src/components/form/TextFields';
import { theme } from '../../src/theme/tokens';

const choices = [
  { value: 'home', label: 'Home' },
  { value: 'facility', label: 'Facility' },
  { value: 'hospital', label: 'Hospital' },
];

/** Renders a field kind as a screen does: the value held in state, changes written back. */
function renderField<T>(
  Field: (props: FieldProps<T>) => ReactNode,
  initial: NoInfer<T>,
  error?: string,
) {
  const seen: T[] = [];
  function Host() {
    const [value, setValue] = useState(initial);
    return (
      <Field
        id="field"
        label="Field label"
        value={value}
        error={error}
        onChange={(next) => {
          seen.push(next);
          setValue(next);
        }}
      />
    );
  }
  render(
    <ThemeProvider theme={theme}>
      <Host />
    </ThemeProvider>,
  );
  return { seen, user: userEvent.setup() };
}

describe('form field kinds', () => {
  it('input: a labelled line of text', async () => {
    const { seen, user } = renderField(InputField, '');
    await user.type(screen.getByRole('textbox', { name: 'Field label' }), 'Yamada');
    expect(seen.at(-1)).toBe('Yamada');
  });

  it('textarea: several lines', async () => {
    const { seen, user } = renderField(TextareaField, '');
    await user.type(screen.getByRole('textbox', { name: 'Field label' }), 'one{Enter}two');
    expect(seen.at(-1)).toBe('one\ntwo');
  });

  it('date: a YYYY-MM-DD value from the date input', async () => {
    const { seen, user } = renderField(DateField, '');
    const input = screen.getByLabelText('Field label') as HTMLInputElement;
    expect(input.type).toBe('date');
    await user.type(input, '2026-11-22');
    expect(seen.at(-1)).toBe('2026-11-22');
  });

  it('link: a URL input', async () => {
    const { seen, user } = renderField(LinkField, '');
    const input = screen.getByRole('textbox', { name: 'Field label' }) as HTMLInputElement;
    expect(input.type).toBe('url');
    await user.type(input, 'https://example.jp');
    expect(seen.at(-1)).toBe('https://example.jp');
  });

  it('dropdown: one choice or none', async () => {
    const { seen, user } = renderField(
      (props: FieldProps<string>) => (
        <DropdownField {...props} choices={choices} noneLabel="Choose" />
      ),
      '',
    );
    const select = screen.getByRole('combobox', { name: 'Field label' });
    await user.selectOptions(select, 'Facility');
    expect(seen.at(-1)).toBe('facility');
    await user.selectOptions(select, 'Choose');
    expect(seen.at(-1)).toBe('');
  });

  it('radio: one choice in a labelled group, clearable', async () => {
    const { seen, user } = renderField(
      (props: FieldProps<string>) => <RadioField {...props} choices={choices} noneLabel="None" />,
      '',
    );
    const group = screen.getByRole('group', { name: 'Field label' });
    expect(group).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: 'Hospital' }));
    expect(seen.at(-1)).toBe('hospital');
    expect((screen.getByRole('radio', { name: 'Hospital' }) as HTMLInputElement).checked).toBe(
      true,
    );
    await user.click(screen.getByRole('radio', { name: 'None' }));
    expect(seen.at(-1)).toBe('');
  });

  it('checkbox: a yes/no statement', async () => {
    const { seen, user } = renderField(CheckboxField, false);
    await user.click(screen.getByRole('checkbox', { name: 'Field label' }));
    expect(seen.at(-1)).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Field label' }));
    expect(seen.at(-1)).toBe(false);
  });

  it('checklist: any number of choices, kept in the order of the list', async () => {
    const { seen, user } = renderField(
      (props: FieldProps<string[]>) => <ChecklistField {...props} choices={choices} />,
      [],
    );
    await user.click(screen.getByRole('checkbox', { name: 'Hospital' }));
    await user.click(screen.getByRole('checkbox', { name: 'Home' }));
    expect(seen.at(-1)).toEqual(['home', 'hospital']);
    await user.click(screen.getByRole('checkbox', { name: 'Hospital' }));
    expect(seen.at(-1)).toEqual(['home']);
  });

  it('user-select: members chosen among connections, or a note when there are none', async () => {
    const members = [
      { value: 'user-1', label: 'Sato Hanako' },
      { value: 'user-2', label: 'Suzuki Ichiro' },
    ];
    const { seen, user } = renderField(
      (props: FieldProps<string[]>) => (
        <UserSelectField {...props} choices={members} emptyText="No connections" />
      ),
      [],
    );
    await user.click(screen.getByRole('checkbox', { name: 'Suzuki Ichiro' }));
    expect(seen.at(-1)).toEqual(['user-2']);
    render(
      <ThemeProvider theme={theme}>
        <UserSelectField
          id="empty"
          label="Nobody"
          value={[]}
          onChange={() => undefined}
          choices={[]}
          emptyText="No connections"
        />
      </ThemeProvider>,
    );
    expect(screen.getByText('No connections')).toBeTruthy();
  });

  it('shows its error under the control and ties the two together', () => {
    renderField(InputField, 'x', 'Too long');
    const input = screen.getByRole('textbox', { name: 'Field label' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const message = document.getElementById(input.getAttribute('aria-describedby')!);
    expect(message?.textContent).toBe('Too long');
  });
});
