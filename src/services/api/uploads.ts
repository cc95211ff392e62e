import { memorialEndpoints } from '../../../contract/memorial';
import { callEndpoint } from '../http/callEndpoint';

/** The server refused the file itself; `code` is a validation code (`validation-<code>`). */
export class UploadRefused extends Error {
  constructor(readonly code: string) {
    super(`upload refused: ${code}`);
  }
}

/** Refusal codes of a PUT the member can act on; anything else means: try again. */
const REFUSALS = new Set(['not_an_image', 'image_heic_unsupported', 'image_too_large']);

export interface UploadOptions {
  /** How much of the file has been sent, 0–100. */
  onProgress?: (percent: number) => void;
  /** Aborts the upload: the member pressed cancel. */
  signal?: AbortSignal;
}

/**
 * Uploads an image file: a signed PUT URL is asked for with the member's token (the upload
 * is then theirs, and only they can give it a use), the file is PUT there, where the server
 * checks its bytes at once, and the answered name is registered by the caller (album, history,
 * page photo, icon, letter, a death report's document). Axios, not fetch, because only XHR
 * reports upload progress.
 */
export async function uploadImage(file: File, options: UploadOptions = {}): Promise<string> {
  const data = await callEndpoint(
    memorialEndpoints.signedUrl,
    { query: { method: 'PUT', imageName: file.name } },
    { signal: options.signal },
  );
  const { default: axios } = await import('axios');
  try {
    await axios.put(data.url, file, {
      headers: { 'content-type': file.type || 'application/octet-stream' },
      signal: options.signal,
      onUploadProgress: (event) =>
        options.onProgress?.(event.total ? Math.round((event.loaded / event.total) * 100) : 0),
    });
  } catch (error) {
    if (!axios.isAxiosError(error) || error.response === undefined) throw error;
    const answer = error.response.data as { code?: unknown } | undefined;
    const code = typeof answer?.code === 'string' ? answer.code : '';
    throw new UploadRefused(REFUSALS.has(code) ? code : 'upload_missing');
  }
  return data.imageName;
}
