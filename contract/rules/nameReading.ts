/**
 * The one normaliser for what user search matches against (`users.name_reading`) and for
 * the search text itself, shared by server and client so that both fold input the same way:
 *
 * 1. NFKC: full-width latin and digits become ASCII, half-width katakana become full-width
 *    katakana (with their voiced marks joined), compatibility forms are unified.
 * 2. Katakana U+30A1..U+30F6 move 0x60 down to the matching hiragana (U+3041..U+3096).
 * 3. Whitespace, the ideographic space U+3000 included, is removed; latin is lowercased so
 *    full-width capitals, ASCII capitals and lower case read the same.
 */
export function normalizeReading(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u30a1-\u30f6]/g, (katakana) => String.fromCharCode(katakana.charCodeAt(0) - 0x60))
    .replace(/\s+/gu, '')
    .toLowerCase();
}

/** Name parts of a member, as stored on `users`. */
export interface NameParts {
  lastName: string;
  firstName: string;
  lastNameKana: string;
  firstNameKana: string;
}

/**
 * The stored `name_reading`: the kana reading followed by the written name, each normalised,
 * so that one column answers searches in kana and in kanji alike. Family name first, as
 * names are written in Japanese.
 */
export function nameReadingOf(name: NameParts): string {
  return normalizeReading(name.lastNameKana + name.firstNameKana + name.lastName + name.firstName);
}
