// @vitest-environment node
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FluentBundle, FluentResource } from '@fluent/bundle';
import { describe, expect, it } from 'vitest';

const FTL = readFileSync(path.resolve('src/i18n/ja/translation.ftl'), 'utf8');

/**
 * Many areas add their blocks to the one translation file. Fluent keeps the first of two
 * messages with the same id and drops the second with only an error in the console, so a
 * clash would show one screen another screen's text: this test names every clash.
 */
describe('translation.ftl', () => {
  it('parses without a syntax error', () => {
    const bundle = new FluentBundle('ja', { useIsolating: false });
    expect(bundle.addResource(new FluentResource(FTL)).map(String)).toEqual([]);
  });

  it('defines every message and term id once', () => {
    const ids = [...FTL.matchAll(/^(-?[a-zA-Z][\w-]*)\s*=/gm)].map(([, id]) => id!);
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    expect(repeated).toEqual([]);
  });
});
