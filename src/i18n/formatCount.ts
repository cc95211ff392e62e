/**
 * A count as a message argument, written as Japanese writes a whole number (what Fluent's
 * Intl.NumberFormat gives for `ja`: digits grouped by three with commas), as text. Given a
 * number, Fluent formats it through Intl.NumberFormat, and a page's first NumberFormat loads
 * the locale's data in one long task: the frame's header and the ending note show counts on
 * their first render.
 * Only for arguments that are printed: a message that selects on a number needs the number.
 */
export function formatCount(count: number): string {
  const text = String(count);
  return Number.isSafeInteger(count) ? text.replace(/\B(?=(\d{3})+$)/g, ',') : text;
}
