/**
 * Text with everything that could end an attribute value or start markup escaped: safe as
 * element text and as a quoted attribute value alike.
 */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );
}
