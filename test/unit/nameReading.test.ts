// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { nameReadingOf, normalizeReading } from '../../contract/rules/nameReading';

describe('normalizeReading', () => {
  it('folds katakana to hiragana', () => {
    expect(normalizeReading('ヤマダ タロウ')).toBe('やまだたろう');
  });
  it('joins half-width katakana and their voiced marks, then folds them', () => {
    expect(normalizeReading('ﾔﾏﾀﾞ ﾀﾛｳ')).toBe('やまだたろう');
  });
  it('turns full-width latin into lower-case ASCII', () => {
    expect(normalizeReading('ＹＡＭＡＤＡ Taro')).toBe('yamadataro');
  });
  it('removes the ideographic space and keeps kanji as they are', () => {
    expect(normalizeReading('山田\u3000太郎')).toBe('山田太郎');
  });
  it('leaves the long-vowel mark and characters outside the katakana block alone', () => {
    expect(normalizeReading('ユーザー')).toBe('ゆーざー');
  });
});

describe('nameReadingOf', () => {
  it('stores the kana reading then the written name, family name first', () => {
    expect(
      nameReadingOf({
        lastName: '山田',
        firstName: '太郎',
        lastNameKana: 'やまだ',
        firstNameKana: 'たろう',
      }),
    ).toBe('やまだたろう山田太郎');
  });
});
