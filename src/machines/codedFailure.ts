/**
 * The code a failure carries (an API error's `code`, a refused upload's validation code), or
 * `fallback`: machines keep codes, screens word them in Japanese.
 */
export function codeOf(error: unknown, fallback: string): string {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    if (typeof code === 'string' && /^[a-z_]+$/.test(code)) return code;
  }
  return fallback;
}
