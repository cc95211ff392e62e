// @vitest-environment node
/**
 * Every user-visible string lives in src/i18n/ja/translation.ftl. This test
 * reads every .ts/.tsx file under src/ outside src/i18n and fails on any Japanese character,
 * naming file, line and text.
 *
 * The whole file is scanned, comments included: a comment that quotes a Japanese text is a
 * copy of a string that must live in the .ftl file and drifts from it; refer to the Fluent id
 * instead. Character classes that validation needs (hiragana-only kana) are written with
 * Unicode escapes (`\u3041-\u3096`, `\p{Script=Hiragana}`), which this test does not flag.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SOURCE_ROOT = path.resolve('src');
const EXEMPT_DIR = path.join(SOURCE_ROOT, 'i18n');

/**
 * Hiragana and katakana (with the phonetic extension), CJK ideographs (unified, extension A,
 * compatibility), CJK symbols and punctuation (「」、。 and the ideographic space) and the
 * full-width and half-width forms block (full-width ！？（）, half-width katakana).
 */
const JAPANESE =
  /[\u3000-\u303f\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]/u;

interface Offence {
  file: string;
  line: number;
  text: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full === EXEMPT_DIR ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

export function findJapanese(file: string, content: string): Offence[] {
  return content
    .split('\n')
    .flatMap((text, index) =>
      JAPANESE.test(text) ? [{ file, line: index + 1, text: text.trim() }] : [],
    );
}

describe('no Japanese text outside src/i18n', () => {
  it('recognises every kind of Japanese character and nothing else', () => {
    for (const sample of [
      'ひらがな',
      'カタカナ',
      '漢字',
      '「かぎ」',
      '、。',
      '！',
      'ｶﾀｶﾅ',
      '\u3000',
    ]) {
      expect(findJapanese('sample.ts', `const x = '${sample}';`), sample).toHaveLength(1);
    }
    const clean = "const kana = /^[\\u3041-\\u3096ー]+$/u.source === 'x'; // plain ASCII é ü —";
    expect(findJapanese('sample.ts', clean.replace('ー', '\\u30fc'))).toEqual([]);
  });

  it('finds none in the source files', () => {
    const files = sourceFiles(SOURCE_ROOT);
    expect(files.length).toBeGreaterThan(0);
    const offences = files.flatMap((file) =>
      findJapanese(path.relative(process.cwd(), file), readFileSync(file, 'utf8')),
    );
    expect(
      offences.map(({ file, line, text }) => `${file}:${line}: ${text}`),
      'move these texts to src/i18n/ja/translation.ftl and use their Fluent ids',
    ).toEqual([]);
  });
});
