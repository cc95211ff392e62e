import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FluentBundle, FluentResource } from '@fluent/bundle';
import type { Translate } from '../../src/contract/rules/endingnote';
import { projectRoot } from './paths';

/** The locales the app has texts for. */
export const LOCALES = ['ja'] as const;

/**
 * The app's Fluent file of `locale` (every user-visible string): the one place the server
 * reads it, for the SPA, the pages it renders and the documents it writes.
 */
export function translationsText(locale: (typeof LOCALES)[number]): Promise<string> {
  return readFile(path.join(projectRoot, 'src/i18n', locale, 'translation.ftl'), 'utf8');
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
