import {
  fieldValueText,
  sectionDefinition,
  type Translate,
} from '../../../contract/rules/endingnote';
import { escapeHtml } from '../escapeHtml';
import type { MemberName, NoteView } from './sections';

const memberName = (t: Translate, member: MemberName) =>
  t('endingnote-member-name', { lastName: member.lastName, firstName: member.firstName });

const tokyoDateTime = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  dateStyle: 'long',
  timeStyle: 'short',
});

/**
 * A printable, self-contained HTML document of the whole note (print to PDF from a browser),
 * in the app's own texts `t`.
 */
export function noteAsHtml(t: Translate, note: NoteView, exportedAt: Date): string {
  const members = new Map(note.members.map((member) => [member.userId, member]));
  const title = t('endingnote-of', { name: memberName(t, note.owner) });
  const sections = note.sections.map((view) => {
    const section = sectionDefinition(view.section)!;
    const rows = section.fields.map((field) => {
      const shown = fieldValueText(t, section.code, field, view.values[field.code]!, (id) => {
        const member = members.get(id);
        return member && memberName(t, member);
      });
      const cell = shown
        ? escapeHtml(shown)
        : `<span class="empty">${escapeHtml(t('endingnote-empty'))}</span>`;
      return `<dt>${escapeHtml(t(`endingnote-${section.code}-${field.code}`))}</dt><dd>${cell}</dd>`;
    });
    return `<section><h2>${escapeHtml(t(`endingnote-${section.code}`))}</h2><dl>${rows.join('')}</dl></section>`;
  });
  return `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: "Hiragino Sans", "Noto Sans JP", "Noto Sans CJK JP", sans-serif; margin: 2rem auto; max-width: 46rem; padding: 0 1rem; line-height: 1.7; color: #1f2933; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; border-bottom: 1px solid #9aa5b1; padding-bottom: .25rem; }
section { break-inside: avoid-page; margin-bottom: 1.5rem; }
dt { font-weight: bold; margin-top: .75rem; } dd { margin: 0 0 0 1rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.empty { color: #616e7c; } .exported { color: #52606d; font-size: .9rem; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p class="exported">${escapeHtml(t('endingnote-exported-at', { date: tokyoDateTime.format(exportedAt) }))}</p>
${sections.join('\n')}
</body>
</html>
`;
}

/** The note as a JSON file: codes and values as the API answers them, with names of members. */
export function noteAsJson(note: NoteView, exportedAt: Date): string {
  return `${JSON.stringify({ exportedAt: exportedAt.toISOString(), ...note }, null, 2)}\n`;
}

/** `endingnote-YYYYMMDD.<ext>`, dated in Japan. */
export function exportFileName(exportedAt: Date, extension: 'json' | 'html'): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' })
    .format(exportedAt)
    .replace(/-/g, '');
  return `endingnote-${day}.${extension}`;
}
