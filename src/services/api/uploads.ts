import { http } from '../http';

/** The server refused the file itself; `code` is a validation code (`validation-<code>`). */
export class UploadRefused extends Error {
  constructor(readonly code: string) {
    super(`upload refused: ${code}`);
  }
}

/** Refusal codes of a PUT the member can act on; anything else means: try again. */
const REFUSALS = new Set(['not_an_image', 'image_heic_unsupported', 'image_too_large']);

/**
 * Uploads an image file: a signed PUT URL is asked for with the member's token (the upload
 * is then theirs, and only they can give it a use), the file is PUT there, where the server
 * checks its bytes at once, and the answered name is registered by the caller (album, history,
 * page photo, icon, letter).
 */
export async function uploadImage(file: File): Promise<string> {
  const { data } = await http.get<{ url: string; imageName: string }>('/v1/signed_url', {
    params: { method: 'PUT', image_name: file.name },
  });
  const response = await fetch(data.url, {
    method: 'PUT',
    body: file,
    headers: { 'content-type': file.type || 'application/octet-stream' },
  });
  if (!response.ok) {
    const answer = (await response.json().catch(() => ({}))) as { code?: unknown };
    const code = typeof answer.code === 'string' ? answer.code : '';
    throw new UploadRefused(REFUSALS.has(code) ? code : 'upload_missing');
  }
  return data.imageName;
}
