import { useState } from 'react';
import styled from 'styled-components';
import { useT } from '../../i18n/useT';
import { useImageUrl } from '../../services/frame/useImageUrl';
import certificatedIcon from './assets/certificated.svg';
import defaultProfileImage from './assets/default-profile.svg';
import uncertificatedIcon from './assets/uncertificated.svg';

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
  /** Width and height in px; `smallSize` applies on small screens (44 / 40 in the header). */
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
