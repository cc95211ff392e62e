import { useQuery } from '@tanstack/react-query';
import { fetchSignedImageUrl } from './frameReads';

/** A full address (or a path of this site) is shown as it is; anything else is an object name. */
export function isImageAddress(image: string): boolean {
  return /^(https?:|data:|blob:|\/)/.test(image);
}

/** Signed GET URLs live 15 minutes on the server; refetch well before that. */
const SIGNED_URL_STALE_MS = 10 * 60 * 1000;

/** An image address as it is, or an object name exchanged for a signed GET URL. */
export function useImageUrl(image: string | null | undefined): string | null {
  const objectName = image && !isImageAddress(image) ? image : null;
  const signed = useQuery({
    queryKey: ['signed-url', objectName],
    enabled: objectName !== null,
    staleTime: SIGNED_URL_STALE_MS,
    retry: false,
    queryFn: () => fetchSignedImageUrl(objectName ?? ''),
  });
  if (!image) return null;
  if (objectName === null) return image;
  return signed.data ?? null;
}
