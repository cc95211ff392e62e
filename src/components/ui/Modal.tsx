import { useId, useRef, type ReactNode, type PointerEvent } from 'react';
import { createPortal } from 'react-dom';
import styled from 'styled-components';
import { useT } from '../../i18n/useT';
import { useBodyScrollLock, useFocusTrap } from './useFocusTrap';

/** A horizontal swipe at least this long closes a closable modal. */
export const SWIPE_CLOSE_PX = 50;

const Backdrop = styled.div`
  position: fixed;
  inset: 0;
  z-index: ${({ theme }) => theme.layers.portal};
  display: flex;
  align-items: center;
  justify-content: center;
  padding: 16px;
  background: rgba(0, 0, 0, 0.5);
  /* On a short screen a centred dialog would start above the fold: it starts at the top. */
  ${({ theme }) => theme.short} {
    align-items: flex-start;
    padding: 8px 16px;
  }
`;

const Dialog = styled.div`
  position: relative;
  width: ${({ theme }) => theme.sizes.modalWidth}px;
  max-width: 100%;
  max-height: calc(100vh - 32px);
  overflow-y: auto;
  padding: 24px;
  border-radius: 16px;
  background: ${({ theme }) => theme.colours.surface};
  color: ${({ theme }) => theme.colours.text};
  touch-action: pan-y;
  ${({ theme }) => theme.below('xs')} {
    width: ${({ theme }) => theme.sizes.modalWidthSmall}px;
  }
  ${({ theme }) => theme.short} {
    max-height: calc(100vh - 16px);
    padding: 16px;
  }
`;

const Title = styled.h2`
  margin: 0 32px 16px 0;
  font-size: 1.2rem;
`;

const Close = styled.button`
  position: absolute;
  top: 8px;
  right: 8px;
  width: 44px;
  height: 44px;
  border: none;
  border-radius: 50%;
  background: transparent;
  color: inherit;
  font-size: 24px;
  line-height: 1;
  cursor: pointer;
`;

export interface ModalProps {
  open: boolean;
  title: string;
  /** Absent: the modal cannot be dismissed (no close button, Escape, backdrop or swipe). */
  onClose?: () => void;
  children: ReactNode;
}

/** A dialog on the portal layer: focus stays inside; a closable one also closes on a swipe. */
export function Modal({ open, title, onClose, children }: ModalProps) {
  const t = useT();
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const swipeStart = useRef<number | null>(null);
  useFocusTrap(dialog, open);
  useBodyScrollLock(open);
  if (!open) return null;

  const onPointerDown = (event: PointerEvent) => {
    swipeStart.current = event.clientX;
  };
  const onPointerUp = (event: PointerEvent) => {
    const start = swipeStart.current;
    swipeStart.current = null;
    if (onClose && start !== null && Math.abs(event.clientX - start) >= SWIPE_CLOSE_PX) onClose();
  };

  return createPortal(
    <Backdrop
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose?.();
      }}
    >
      <Dialog
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onClose?.();
        }}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          swipeStart.current = null;
        }}
      >
        <Title id={titleId}>{title}</Title>
        {onClose && (
          <Close type="button" aria-label={t('modal-close')} onClick={onClose}>
            ×
          </Close>
        )}
        {children}
      </Dialog>
    </Backdrop>,
    document.body,
  );
}
