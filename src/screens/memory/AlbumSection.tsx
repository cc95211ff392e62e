import { lazy, Suspense } from 'react';
import styled from 'styled-components';
import { formatCalendarDate } from '../../components/ui/calendarDate';
import { useT } from '../../i18n/useT';
import type { AlbumPhoto } from '../../services/api/memorial';
import { LoadMore } from '../../components/ui/LoadMore';
import { itemsOf, useAlbum, useAlbumPages } from './pageQuery';
import { ListSection } from './ListSection';

// Editing is offered to admins only: a visitor's page never loads its code.
const AlbumEditing = lazy(() =>
  import('./AlbumEditing').then((module) => ({ default: module.AlbumEditing })),
);

export const Grid = styled.ul`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(140px, 1fr));
  gap: 12px;
  margin: 0 0 16px;
  padding: 0;
  list-style: none;
`;

const Thumbnail = styled.img`
  display: block;
  width: 100%;
  /* The width and height attributes reserve the space; the square crop is drawn by CSS. */
  height: auto;
  aspect-ratio: 1;
  object-fit: cover;
  border-radius: 8px;
  background: ${({ theme }) => theme.colours.border};
`;

const Caption = styled.p`
  margin: 4px 0;
  overflow-wrap: anywhere;
  small {
    display: block;
    color: ${({ theme }) => theme.colours.textMuted};
  }
`;

/** A photo's accessible name: its caption, or its place in the album. */
export function usePhotoLabel(photo: AlbumPhoto, index: number): string {
  const t = useT();
  return photo.caption || t('memory-album-photo-number', { number: index + 1 });
}

/** The thumbnail, linking to the photo itself. */
export function PhotoLink({ photo, index }: { photo: AlbumPhoto; index: number }) {
  return (
    <a href={photo.url} target="_blank" rel="noreferrer">
      <Thumbnail
        src={photo.thumbnailUrl}
        alt={usePhotoLabel(photo, index)}
        width={photo.width}
        height={photo.height}
        loading={index < 4 ? 'eager' : 'lazy'}
      />
    </a>
  );
}

export function PhotoCaption({ photo }: { photo: AlbumPhoto }) {
  return (
    <Caption>
      {photo.caption}
      {photo.takenOn && <small>{formatCalendarDate(photo.takenOn)}</small>}
    </Caption>
  );
}

/**
 * The album: thumbnails in display order, a page at a time with the "more" button; the first
 * row loads at once, the rest as the reader scrolls near. Admins upload, delete and reorder,
 * and a new order names every photo: their album is read whole.
 */
export function AlbumSection({
  memorialPageId,
  canEdit,
}: {
  memorialPageId: string;
  canEdit: boolean;
}) {
  const t = useT();
  const pages = useAlbumPages(memorialPageId);
  const whole = useAlbum(memorialPageId, canEdit);
  const shown = itemsOf(pages.data);
  const viewing = shown.length > 0 && (
    <>
      <Grid>
        {shown.map((photo, index) => (
          <li key={photo.id}>
            <PhotoLink photo={photo} index={index} />
            <PhotoCaption photo={photo} />
          </li>
        ))}
      </Grid>
      <LoadMore list={pages} label={t('memory-album-more')} />
    </>
  );
  if (!canEdit) {
    return (
      <ListSection
        id="album"
        list={{ isError: pages.isError, isSuccess: pages.isSuccess, data: shown }}
        canEdit={false}
      >
        {viewing}
      </ListSection>
    );
  }
  return (
    <ListSection id="album" list={whole} canEdit>
      <Suspense fallback={viewing}>
        <AlbumEditing memorialPageId={memorialPageId} photos={whole.data ?? []} />
      </Suspense>
    </ListSection>
  );
}
