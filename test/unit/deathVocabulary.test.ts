// @vitest-environment node
/**
 * The death journey speaks one vocabulary (docs/death-detection.md, "Vocabulary"): the person
 * a member chose to confirm their death is the 見守り役, never the 管理者 (that word is a
 * memorial page's admin, and a letter's), and what the family reads names the death gently.
 * Scoped by the message ids of the death journey, and over every mail text the server sends.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const FTL = readFileSync(path.resolve('src/i18n/ja/translation.ftl'), 'utf8');
const SERVER_DOMAIN = path.resolve('server/domain');

/**
 * Every mail text: each domain's mails.ts and the change notices scanned whole; the data
 * export's README only on its death lines, since its 管理者 elsewhere is a memorial page's.
 */
const MAIL_TEXTS: { file: string; lines: (line: string) => boolean }[] = [
  ...readdirSync(SERVER_DOMAIN, { recursive: true, encoding: 'utf8' })
    .filter((file) => path.basename(file) === 'mails.ts')
    .map((file) => ({ file: path.join('server/domain', file), lines: () => true })),
  { file: 'server/domain/accounts/changeNotices.ts', lines: () => true },
  { file: 'server/domain/dataExport/build.ts', lines: (line) => line.includes('death_') },
];

/** Every message the member, the 見守り役 or the family reads along the death journey. */
const DEATH_JOURNEY_PREFIXES = [
  'death-',
  'expired-modal-',
  'unverified-modal-',
  'progress-modal-',
  'revoked-modal-',
  'own-suspicion-',
  'identity-',
  'integration-link-',
  'notification-kind-death_',
  'mypage-death-',
  'page-title-death-',
  'page-title-identity-',
  'screen-death-',
  'screen-identity-',
  'restore-',
  'page-title-restore-',
  'mail-restoration-',
  'login-memorialized-',
  'login-error-account_memorialized',
];

/** The role's other name, the blunt words the gentle ご逝去 replaces, and the device's. */
const FORBIDDEN = [
  { word: '管理者', why: 'the role is 見守り役' },
  { word: '死亡確認', why: 'say ご逝去の確認' },
  { word: '死亡の可能性', why: 'say ご逝去の可能性' },
  { word: '死亡検知', why: 'say 見守り' },
  { word: 'このアプリ', why: 'the same text shows in a browser' },
];

function deathJourneyMessages(): { id: string; text: string }[] {
  return [...FTL.matchAll(/^([a-z][\w-]*) = (.*)$/gm)]
    .map(([, id, text]) => ({ id: id!, text: text! }))
    .filter(({ id }) => DEATH_JOURNEY_PREFIXES.some((prefix) => id.startsWith(prefix)));
}

describe('the death journey vocabulary', () => {
  it('finds the death journey in the translation file', () => {
    const ids = deathJourneyMessages().map(({ id }) => id);
    expect(ids).toContain('death-modal-body');
    expect(ids).toContain('unverified-modal-body');
    expect(ids).toContain('notification-kind-death_suspected');
    expect(ids.length).toBeGreaterThan(150);
  });

  it('uses 見守り役 for the role and ご逝去 for the death in every message', () => {
    const offences = deathJourneyMessages().flatMap(({ id, text }) =>
      FORBIDDEN.filter(({ word }) => text.includes(word)).map(
        ({ word, why }) => `${id}: ${word} (${why})`,
      ),
    );
    expect(offences).toEqual([]);
  });

  it('scans every mail text file', () => {
    const files = MAIL_TEXTS.map(({ file }) => file);
    expect(files).toContain(path.join('server/domain', 'deathDetection', 'mails.ts'));
    expect(files).toContain(path.join('server/domain', 'accounts', 'mails.ts'));
    expect(readFileSync(path.resolve('server/domain/deathDetection/mails.ts'), 'utf8')).toContain(
      '見守り役',
    );
  });

  it('uses the same words in the mails', () => {
    const offences = MAIL_TEXTS.flatMap(({ file, lines }) =>
      readFileSync(path.resolve(file), 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          lines(line)
            ? FORBIDDEN.filter(({ word }) => line.includes(word)).map(
                ({ word, why }) => `${file}:${index + 1}: ${word} (${why})`,
              )
            : [],
        ),
    );
    expect(offences).toEqual([]);
  });

  it('keeps 管理者 where it means a memorial page admin', () => {
    expect(FTL).toMatch(/^memory-admins-title = 管理者$/m);
  });
});
