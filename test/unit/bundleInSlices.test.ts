// @vitest-environment node
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FluentBundle } from '@fluent/bundle';
import { describe, expect, it } from 'vitest';
import { bundleInSlices, entrySlices } from '../../src/i18n/bundleInSlices';
import { bundleFrom } from '../../src/i18n/I18nProvider';

const FTL = readFileSync(path.resolve('src/i18n/ja/translation.ftl'), 'utf8');
const ARGS = { count: 3, name: '山田', date: '2026年11月22日', total: 7, days: 2 };

/** Every message of `bundle`, with its attributes, formatted with the same arguments. */
function formatted(bundle: FluentBundle, ids: string[]): Record<string, unknown> {
  return Object.fromEntries(
    ids.map((id) => {
      const message = bundle.getMessage(id);
      const format = (pattern: Parameters<FluentBundle['formatPattern']>[0] | null | undefined) =>
        pattern ? bundle.formatPattern(pattern, ARGS, []) : null;
      const attributes = Object.fromEntries(
        Object.entries(message?.attributes ?? {}).map(([key, pattern]) => [key, format(pattern)]),
      );
      return [id, { value: format(message?.value), attributes }];
    }),
  );
}

describe('the translations parsed a slice per task', () => {
  it('cuts the file into slices at entry starts, losing no line', () => {
    const slices = entrySlices(FTL);
    expect(slices.length).toBeGreaterThan(8);
    expect(slices.join('\n')).toBe(FTL);
    for (const slice of slices.slice(1)) expect(slice).toMatch(/^-?[a-zA-Z][\w-]* *= */);
  });

  it('keeps a message with variants and attributes whole', () => {
    const text =
      'a = 1\nb =\n    { $count ->\n        [one] one\n       *[other] many\n    }\n    .title = t\nc = 3\n';
    expect(entrySlices(text, 1)).toEqual([
      'a = 1',
      'b =\n    { $count ->\n        [one] one\n       *[other] many\n    }\n    .title = t',
      'c = 3\n',
    ]);
  });

  it('gives every message the same text as the file parsed at once', async () => {
    const ids = [...FTL.matchAll(/^([a-zA-Z][\w-]*) *=/gm)].map(([, id]) => id!);
    const sliced = await bundleInSlices(FTL, new FluentBundle('ja', { useIsolating: false }));
    expect(ids.filter((id) => !sliced.hasMessage(id))).toEqual([]);
    expect(formatted(sliced, ids)).toEqual(formatted(bundleFrom(FTL), ids));
  });
});
