import prefectureList from './prefectures.json';

/**
 * The 47 prefectures in JIS X 0401 order with their two-digit codes. The registration
 * `address` is one of these names exactly. The names are wire values shared by server and
 * client, so they live in a data file (prefectures.json) rather than in source text.
 */
export interface Prefecture {
  code: string;
  name: string;
}

export const PREFECTURES: readonly Prefecture[] = prefectureList;

export const PREFECTURE_NAMES: ReadonlySet<string> = new Set(PREFECTURES.map((p) => p.name));

export function isPrefectureName(value: string): boolean {
  return PREFECTURE_NAMES.has(value);
}
