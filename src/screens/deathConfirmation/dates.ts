/** A UTC instant or a `YYYY-MM-DD` date as the Japanese calendar date in Asia/Tokyo. */
export function formatTokyoDate(value: string): string {
  const at = /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? new Date(`${value}T00:00:00+09:00`)
    : new Date(value);
  return new Intl.DateTimeFormat('ja-JP', {
    timeZone: 'Asia/Tokyo',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  }).format(at);
}
