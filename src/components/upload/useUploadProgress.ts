import { useCallback, useRef, useState } from 'react';
import { uploadImage } from '../../services/api/uploads';

/** Thrown by `upload` when the member pressed cancel: callers say nothing and keep the form. */
export class UploadCancelled extends Error {
  constructor() {
    super('upload cancelled');
    this.name = 'UploadCancelled';
  }
}

/**
 * One upload at a time through the app's upload path, with its progress for
 * `<UploadProgress>` and a cancel that aborts the request.
 */
export function useUploadProgress() {
  const [progress, setProgress] = useState<{ fileName: string; percent: number } | null>(null);
  const controller = useRef<AbortController | null>(null);
  const upload = useCallback(async (file: File): Promise<string> => {
    const abort = new AbortController();
    controller.current = abort;
    setProgress({ fileName: file.name, percent: 0 });
    try {
      return await uploadImage(file, {
        signal: abort.signal,
        onProgress: (percent) => setProgress({ fileName: file.name, percent }),
      });
    } catch (error) {
      throw abort.signal.aborted ? new UploadCancelled() : error;
    } finally {
      controller.current = null;
      setProgress(null);
    }
  }, []);
  const cancel = useCallback(() => controller.current?.abort(), []);
  return { progress, upload, cancel };
}

export type UploadTransfer = ReturnType<typeof useUploadProgress>;
