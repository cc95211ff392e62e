import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FluentBundle, FluentResource } from '@fluent/bundle';
import type { Translate } from '../../contract/rules/endingnote';
import { distDir, projectRoot } from './paths';

/** The locales the app has texts for. */
export const LOCALES = ['ja'] as const;

/**
 * The app's Fluent file of `locale` (every user-visible string): the one place the server
 * reads it, for the SPA, the pages it renders and the documents it writes. A built server
 * reads the build's copy (vite.config.ts); without a build (`npm run dev`, the API suite)
 * the source is the only copy.
 */
export function translationsText(locale: (typeof LOCALES)[number]): Promise<string> {
  const built = path.join(distDir, 'i18n', locale, 'translation.ftl');
  const file = existsSync(built)
    ? built
    : path.join(projectRoot, 'src/i18n', locale, 'translation.ftl');
  return readFile(file, 'utf8');
}

let japanese: Promise<Translate> | undefined;

/** The app's own Japanese texts by Fluent id, so that a document reads like the screens. */
export function japaneseTexts(): Promise<Translate> {
  japanese ??= translationsText('ja').then((text) => {
    const bundle = new FluentBundle('ja', { useIsolating: false });
    bundle.addResource(new FluentResource(text));
    return (id, args) => {
      const message = bundle.getMessage(id);
      return message?.value ? bundle.formatPattern(message.value, args) : id;
    };
  });
  return japanese;
}
