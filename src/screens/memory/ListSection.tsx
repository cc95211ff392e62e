import { useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { Button } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { Panel } from '../../components/ui/pageLayout';
import { Muted, SectionTitle } from './sectionLayout';

export const SmallButton = styled(Button)`
  padding: 6px 12px;
  font-size: 0.85rem;
`;

/**
 * A list section of the memorial page (album, history): its title, the load error, the
 * empty text once loaded (admins are told how to add), then the list and the admins' forms.
 * Fluent ids: `memory-<id>-title`, `memory-<id>-empty`, `memory-<id>-empty-admin`.
 */
export function ListSection({
  id,
  list,
  canEdit,
  children,
}: {
  /** The panel's anchor and the stem of its Fluent ids. */
  id: 'album' | 'history';
  list: { isError: boolean; isSuccess: boolean; data?: unknown[] };
  canEdit: boolean;
  children: ReactNode;
}) {
  const t = useT();
  const titleId = `memory-${id}-title`;
  return (
    <Panel id={id} aria-labelledby={titleId}>
      <SectionTitle id={titleId}>{t(titleId)}</SectionTitle>
      {list.isError && <p role="alert">{t('memory-load-error')}</p>}
      {list.isSuccess && list.data?.length === 0 && (
        <Muted>{t(canEdit ? `memory-${id}-empty-admin` : `memory-${id}-empty`)}</Muted>
      )}
      {children}
    </Panel>
  );
}

/** An item's edit and delete buttons; delete asks once more (the same place confirms). */
export function EditAndDelete({
  small = false,
  editLabel,
  deleteLabel,
  busy,
  onEdit,
  onDelete,
}: {
  small?: boolean;
  /** The accessible names, naming the item. */
  editLabel: string;
  deleteLabel: string;
  /** Disables the confirmation while the item is being changed. */
  busy: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const t = useT();
  const [confirming, setConfirming] = useState(false);
  const ItemButton = small ? SmallButton : Button;
  return (
    <>
      <ItemButton type="button" $variant="secondary" aria-label={editLabel} onClick={onEdit}>
        {t('memory-edit')}
      </ItemButton>
      {confirming ? (
        <ItemButton type="button" disabled={busy} onClick={onDelete}>
          {t('memory-delete-confirm')}
        </ItemButton>
      ) : (
        <ItemButton
          type="button"
          $variant="secondary"
          aria-label={deleteLabel}
          onClick={() => setConfirming(true)}
        >
          {t('memory-delete')}
        </ItemButton>
      )}
    </>
  );
}
