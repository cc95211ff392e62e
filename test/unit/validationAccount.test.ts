// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  loginSchema,
  passwordSchema,
  registrationSchema,
  inflowRegistrationSchema,
  tokyoToday,
} from '../../contract/rules/account';
import { PREFECTURES } from '../../contract/rules/prefectures';

const today = () => '2026-11-22';
const valid = {
  username: 'taro',
  email: 'taro@example.jp',
  password: 'correct horse battery',
  first_name: 'Taro',
  last_name: 'Yamada',
  first_name_kana: '\u305f\u308d\u3046',
  last_name_kana: '\u3084\u307e\u3060',
  address: PREFECTURES[12]!.name,
  birthdate: '1960-04-01',
  sex_code: 1,
};

/** The field → code pairs a schema reports for `input`. */
function codes(
  schema: {
    safeParse(input: unknown): { error?: { issues: { path: PropertyKey[]; message: string }[] } };
  },
  input: unknown,
) {
  const issues = schema.safeParse(input).error?.issues ?? [];
  return Object.fromEntries(issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('registration schema', () => {
  const schema = registrationSchema({ today });

  it('accepts a complete registration and a sex code sent as text', () => {
    expect(codes(schema, valid)).toEqual({});
    expect(schema.parse({ ...valid, sex_code: '9' }).sex_code).toBe(9);
  });

  it('names every missing field as required', () => {
    expect(codes(schema, {})).toEqual({
      username: 'required',
      email: 'required',
      password: 'required',
      first_name: 'required',
      last_name: 'required',
      first_name_kana: 'required',
      last_name_kana: 'required',
      address: 'required',
      birthdate: 'required',
      sex_code: 'required',
    });
    expect(codes(schema, { ...valid, username: '   ' })).toEqual({ username: 'required' });
  });

  it('answers one code per bad field', () => {
    expect(
      codes(schema, {
        ...valid,
        email: 'taro@example',
        password: 'short',
        first_name_kana: '\u30bf\u30ed\u30a6',
        last_name_kana: '\u3084\u307e \u3060',
        address: 'Tokyo',
        sex_code: 4,
        username: 'x'.repeat(51),
      }),
    ).toEqual({
      email: 'email_invalid',
      password: 'password_too_short',
      first_name_kana: 'kana_hiragana_only',
      last_name_kana: 'kana_hiragana_only',
      address: 'prefecture_invalid',
      sex_code: 'sex_code_invalid',
      username: 'too_long',
    });
  });

  it('refuses the long-vowel mark, which lies outside the hiragana block', () => {
    expect(codes(schema, { ...valid, first_name_kana: '\u3058\u3087\u30fc\u3058' })).toEqual({
      first_name_kana: 'kana_hiragana_only',
    });
  });

  it('accepts long passphrases up to 128 characters', () => {
    expect(passwordSchema.safeParse('a'.repeat(128)).success).toBe(true);
    expect(codes(passwordSchema, 'a'.repeat(129))).toEqual({ '': 'password_too_long' });
  });

  it('wants a real birthdate that is not in the future', () => {
    for (const birthdate of ['1960-02-30', '1960-13-01', '19600401', '1899-12-31']) {
      expect(codes(schema, { ...valid, birthdate }), birthdate).toEqual({
        birthdate: 'birthdate_invalid',
      });
    }
    expect(codes(schema, { ...valid, birthdate: '2026-11-23' })).toEqual({
      birthdate: 'birthdate_in_future',
    });
    expect(codes(schema, { ...valid, birthdate: '2026-11-22' })).toEqual({});
  });

  it('requires the inflow id in the inflow variant', () => {
    expect(codes(inflowRegistrationSchema({ today }), valid)).toEqual({ inflow_id: 'required' });
  });
});

describe('login schema', () => {
  it('needs both fields and no password policy', () => {
    expect(codes(loginSchema, { username: '', password: '' })).toEqual({
      username: 'required',
      password: 'required',
    });
    expect(codes(loginSchema, { username: 'a@b.jp', password: 'x' })).toEqual({});
  });
});

describe('prefectures and dates', () => {
  it('lists the 47 prefectures in JIS order', () => {
    expect(PREFECTURES).toHaveLength(47);
    expect(PREFECTURES.map((p) => p.code)).toEqual(
      Array.from({ length: 47 }, (_, i) => String(i + 1).padStart(2, '0')),
    );
  });

  it('takes today in Japan, nine hours ahead of UTC', () => {
    expect(tokyoToday(new Date('2026-11-22T14:59:59Z'))).toBe('2026-11-22');
    expect(tokyoToday(new Date('2026-11-22T15:00:00Z'))).toBe('2026-11-23');
  });
});
