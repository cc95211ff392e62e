import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import styled from 'styled-components';
import { useT } from '../../i18n/useT';
import { useApiGet } from './apiGet';
import certificatedIcon from './assets/certificated.svg';
import defaultProfileImage from './assets/default-profile.svg';
import uncertificatedIcon from './assets/uncertificated.svg';

/** A full address (or a path of this site) is shown as it is; anything else is an object name. */
export function isImageAddress(image: string): boolean {
  return /^(https?:|data:|blob:|\/)/.test(image);
}

/** Signed GET URLs live 15 minutes on the server; refetch well before that. */
const SIGNED_URL_STALE_MS = 10 * 60 * 1000;

/** An image address as it is, or an object name exchanged for a signed GET URL. */
export function useImageUrl(image: string | null | undefined): string | null {
  const apiGet = useApiGet();
  const objectName = image && !isImageAddress(image) ? image : null;
  const signed = useQuery({
    queryKey: ['signed-url', objectName],
    enabled: objectName !== null,
    staleTime: SIGNED_URL_STALE_MS,
    retry: false,
    queryFn: async () => {
      const query = new URLSearchParams({ image_name: objectName ?? '', method: 'GET' });
      const answer = (await apiGet(`/v1/signed_url?${query}`)) as { url?: unknown };
      return typeof answer.url === 'string' ? answer.url : null;
    },
  });
  if (!image) return null;
  if (objectName === null) return image;
  return signed.data ?? null;
}

const Frame = styled.span<{ $size: number; $smallSize: number }>`
  position: relative;
  display: inline-block;
  flex: none;
  width: ${({ $size }) => $size}px;
  height: ${({ $size }) => $size}px;
  ${({ theme }) => theme.below('xs')} {
    width: ${({ $smallSize }) => $smallSize}px;
    height: ${({ $smallSize }) => $smallSize}px;
  }
`;

const Picture = styled.img`
  width: 100%;
  height: 100%;
  border-radius: 50%;
  object-fit: cover;
  background: ${({ theme }) => theme.colours.border};
`;

const Mark = styled.img`
  position: absolute;
  right: -2px;
  bottom: -2px;
  width: 40%;
  height: 40%;
  border-radius: 50%;
  border: 2px solid ${({ theme }) => theme.colours.surface};
  background: ${({ theme }) => theme.colours.surface};
`;

export interface AvatarProps {
  /** An image address, or an object name that is exchanged for a signed URL. */
  image: string | null | undefined;
  /** Who is shown, for the image's alternative text. */
  name: string;
  /** Width and height in px; `smallSize` applies on small screens (spec §2: 44 / 40). */
  size?: number;
  smallSize?: number;
  /** true: certificated mark, false: uncertificated mark, undefined: no mark. */
  certificated?: boolean;
  /** Turns the certification mark off even when `certificated` is known. */
  showBadge?: boolean;
}

/** A round profile picture; a missing or broken image shows the default profile image. */
export function Avatar({
  image,
  name,
  size = 44,
  smallSize = 40,
  certificated,
  showBadge = true,
}: AvatarProps) {
  const t = useT();
  const url = useImageUrl(image);
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const shown = url && url !== failedUrl ? url : defaultProfileImage;
  return (
    <Frame $size={size} $smallSize={smallSize}>
      <Picture
        src={shown}
        alt={t('avatar-alt', { name })}
        onError={() => {
          if (shown !== defaultProfileImage) setFailedUrl(shown);
        }}
      />
      {showBadge && certificated !== undefined && (
        <Mark
          src={certificated ? certificatedIcon : uncertificatedIcon}
          alt={t(certificated ? 'avatar-certificated' : 'avatar-uncertificated')}
        />
      )}
    </Frame>
  );
}
