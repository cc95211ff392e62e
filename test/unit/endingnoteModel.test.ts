import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ENDING_NOTE_SECTIONS,
  FIELD_KINDS,
  SECTION_VISIBILITIES,
  sectionCompletion,
  validateSectionValues,
} from '../../contract/rules/endingnote';

const messageIds = new Set(
  [
    ...readFileSync(path.join(__dirname, '../../src/i18n/ja/translation.ftl'), 'utf8').matchAll(
      /^([a-z][\w-]*) =/gm,
    ),
  ].map((match) => match[1]),
);

describe('the ending-note model', () => {
  it('uses every field kind of the spec', () => {
    const used = new Set(
      ENDING_NOTE_SECTIONS.flatMap((section) => section.fields.map((field) => field.kind)),
    );
    expect([...used].sort()).toEqual([...FIELD_KINDS].sort());
  });

  it('has a Japanese label for every section, field, choice and visibility', () => {
    const ids = ENDING_NOTE_SECTIONS.flatMap((section) => [
      `endingnote-${section.code}`,
      ...section.fields.flatMap((field) => [
        `endingnote-${section.code}-${field.code}`,
        ...('options' in field ? field.options : []).map(
          (option) => `endingnote-${section.code}-${field.code}-${option}`,
        ),
      ]),
    ]);
    ids.push(...SECTION_VISIBILITIES.map((visibility) => `endingnote-visibility-${visibility}`));
    expect(ids.filter((id) => !messageIds.has(id))).toEqual([]);
  });

  it('seals every asset and account field', () => {
    const sealed = (code: string) =>
      ENDING_NOTE_SECTIONS.find((section) => section.code === code)!.fields.filter(
        (field) => 'sensitive' in field && field.sensitive,
      ).length;
    expect(sealed('assets')).toBe(7);
    expect(sealed('digital')).toBe(4);
    const elsewhere = ENDING_NOTE_SECTIONS.filter(
      (section) => !['assets', 'digital'].includes(section.code),
    ).flatMap((section) => section.fields.filter((field) => 'sensitive' in field));
    expect(elsewhere).toEqual([]);
  });

  it('answers every validation problem with a code that has a Japanese message', () => {
    const codes = new Set<string>();
    const bad: Record<string, unknown> = {
      input: 'x'.repeat(201),
      textarea: 7,
      dropdown: 'nope',
      radio: 'nope',
      checkbox: 'yes',
      checklist: ['nope', 'nope'],
      date: '2026-02-30',
      link: 'javascript:alert(1)',
      'user-select': ['not-an-id', ...Array.from({ length: 21 }, () => 'x')],
    };
    for (const section of ENDING_NOTE_SECTIONS) {
      const values = Object.fromEntries(
        section.fields.map((field) => [field.code, bad[field.kind]]),
      );
      const result = validateSectionValues(section, { ...values, extra: 1 });
      expect(result.ok).toBe(false);
      if (!result.ok) for (const issue of result.issues) codes.add(issue.code);
    }
    expect(validateSectionValues(ENDING_NOTE_SECTIONS[0], null)).toEqual({
      ok: false,
      issues: [{ field: '', code: 'invalid_type' }],
    });
    expect([...codes].filter((code) => !messageIds.has(`validation-${code}`))).toEqual([]);
    expect(codes.size).toBeGreaterThanOrEqual(8);
  });

  it('fills left-out fields with empty values and counts only what is filled', () => {
    const self = ENDING_NOTE_SECTIONS[0];
    const result = validateSectionValues(self, { full_name: '山田 花子', birthdate: '' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.values).toEqual({
      full_name: '山田 花子',
      birthdate: '',
      blood_type: '',
      registered_domicile: '',
      family: '',
      history: '',
    });
    expect(sectionCompletion(self, result.values)).toEqual({ filled: 1, total: 6 });
  });
});
