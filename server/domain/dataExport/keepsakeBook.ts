import type { Translate } from '../../../contract/rules/endingnote';
import { escapeHtml } from '../escapeHtml';
import { anniversariesOf } from '../memorial/anniversaries';

/** What the book of a memorial page is made of: the keepsake's own JSON files, as written. */
export interface KeepsakeContent {
  page: {
    type: 'self' | 'other' | 'pet';
    lastName: string;
    firstName: string;
    lastNameKana: string;
    firstNameKana: string;
    birthDate: string | null;
    deathDate: string | null;
    animalKind: string | null;
    photo: string | null;
  };
  album: { caption: string; takenOn: string | null; file: string }[];
  history: { occurredOn: string; body: string; file: string | null }[];
  condolences: {
    authorLastName: string;
    authorFirstName: string;
    body: string;
    status: string;
    createdAt: Date | string;
  }[];
  flowers: { lastName: string; firstName: string; offeredOn: string }[];
}

/** A calendar date `YYYY-MM-DD` as a Japanese reader writes it (2026年3月1日). */
const calendarDate = (day: string) =>
  new Intl.DateTimeFormat('ja-JP', { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
const tokyoDate = (at: Date | string) =>
  new Intl.DateTimeFormat('ja-JP', { dateStyle: 'long', timeZone: 'Asia/Tokyo' }).format(
    new Date(at),
  );

const text = (value: string) => escapeHtml(value);
const name = (t: Translate, lastName: string, firstName: string) =>
  text(t('keepsake-person', { lastName, firstName }).trim());
const image = (file: string, alt: string) =>
  `<img src="${text(encodeURI(file))}" alt="${text(alt)}">`;

/**
 * The memorial page as a small book a family keeps and prints, with no Shinobu behind it: a
 * self-contained HTML page beside the archive's photos, in A5 sheets (the cover, the 年忌法要,
 * the history, one album photo a sheet, the condolences and flowers).
 */
export function keepsakeBook(t: Translate, content: KeepsakeContent, madeAt: Date): string {
  const { page } = content;
  const pageName = `${page.lastName} ${page.firstName}`.trim();
  const kana = `${page.lastNameKana} ${page.firstNameKana}`.trim();
  const lifetime = [page.birthDate, page.deathDate]
    .map((day) => (day ? calendarDate(day) : ''))
    .join(' – ');
  const sheets: string[] = [];

  sheets.push(`<section class="sheet cover">
${page.photo ? image(page.photo, t('keepsake-portrait', { name: pageName })) : ''}
<h1>${text(pageName)}</h1>
${kana ? `<p class="kana">${text(kana)}</p>` : ''}
${page.birthDate || page.deathDate ? `<p>${text(lifetime)}</p>` : ''}
${page.animalKind ? `<p>${text(page.animalKind)}</p>` : ''}
<p class="made">${text(t('keepsake-made-at', { date: tokyoDate(madeAt) }))}</p>
</section>`);

  if (page.deathDate) {
    const rows = anniversariesOf(page.deathDate).map(
      ({ code, date }) =>
        `<tr><th scope="row">${text(t(`anniversary-${code}`))}</th><td>${text(calendarDate(date))}</td></tr>`,
    );
    sheets.push(`<section class="sheet">
<h2>${text(t('keepsake-anniversaries'))}</h2>
<table>${rows.join('')}</table>
</section>`);
  }

  if (content.history.length > 0) {
    const entries = content.history.map(
      (entry) => `<article class="entry">
<h3>${text(calendarDate(entry.occurredOn))}</h3>
<p>${text(entry.body)}</p>
${entry.file ? image(entry.file, t('keepsake-history-photo', { date: calendarDate(entry.occurredOn) })) : ''}
</article>`,
    );
    sheets.push(`<section class="sheet">
<h2>${text(t('keepsake-history'))}</h2>
${entries.join('\n')}
</section>`);
  }

  content.album.forEach((photo, index) => {
    const caption = photo.caption || t('keepsake-album-photo', { number: String(index + 1) });
    sheets.push(`<section class="sheet photo">
${index === 0 ? `<h2>${text(t('keepsake-album'))}</h2>` : ''}
<figure>${image(photo.file, caption)}<figcaption>${text(photo.caption)}${
      photo.takenOn ? ` <span>${text(calendarDate(photo.takenOn))}</span>` : ''
    }</figcaption></figure>
</section>`);
  });

  const approved = content.condolences.filter((condolence) => condolence.status === 'approved');
  if (approved.length > 0 || content.flowers.length > 0) {
    const messages = approved.map(
      (condolence) => `<article class="entry">
<h3>${name(t, condolence.authorLastName, condolence.authorFirstName)} <span>${text(tokyoDate(condolence.createdAt))}</span></h3>
<p>${text(condolence.body)}</p>
</article>`,
    );
    const givers = [...new Set(content.flowers.map((f) => name(t, f.lastName, f.firstName)))];
    sheets.push(`<section class="sheet">
<h2>${text(t('keepsake-condolences'))}</h2>
${messages.join('\n')}
${
  content.flowers.length > 0
    ? `<h3>${text(t('keepsake-flowers', { count: String(content.flowers.length) }))}</h3><p>${givers.join('、')}</p>`
    : ''
}
</section>`);
  }

  return `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${text(t('keepsake-title', { name: pageName }))}</title>
<style>
@page { size: A5; margin: 12mm; }
body { font-family: "Hiragino Mincho ProN", "Noto Serif CJK JP", "Noto Sans CJK JP", serif; margin: 0 auto; max-width: 40rem; padding: 1rem; line-height: 1.8; color: #1f2933; }
.sheet + .sheet { break-before: page; margin-top: 3rem; }
.cover { text-align: center; padding-top: 2rem; }
.cover img { max-width: 70%; max-height: 90mm; border-radius: 4px; }
h1 { font-size: 1.8rem; margin: 1rem 0 0; } .kana { margin: 0; color: #52606d; }
h2 { font-size: 1.2rem; border-bottom: 1px solid #9aa5b1; padding-bottom: .25rem; }
h3 { font-size: 1rem; margin: 1rem 0 .25rem; } h3 span { font-weight: normal; color: #52606d; }
.made { color: #52606d; font-size: .85rem; margin-top: 3rem; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #d9e2ec; }
.entry { break-inside: avoid; } .entry p { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
.entry img { max-width: 100%; max-height: 60mm; margin-top: .5rem; }
figure { margin: 0; text-align: center; } figure img { max-width: 100%; max-height: 140mm; }
figcaption { margin-top: .5rem; white-space: pre-wrap; overflow-wrap: anywhere; } figcaption span { color: #52606d; }
@media print { body { padding: 0; max-width: none; } .sheet + .sheet { margin-top: 0; } }
</style>
</head>
<body>
${sheets.join('\n')}
</body>
</html>
`;
}
