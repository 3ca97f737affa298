/**
 * The design system's bottom sheet in a React island (docs/design.md, "Bottom sheet"): the same
 * <dialog class="sheet"> markup and behaviour as site/lib/ui/sheet.ts, opened and closed by `open`.
 * `onClose` hears every way it closes (Escape, the backdrop, the close button), so the island's state
 * follows the dialog.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { closeSheet, openSheet, setUpSheet } from '../../lib/ui/sheet';
import { Icon } from './Icon';

interface Props {
  open: boolean;
  onClose: () => void;
  title: string;
  closeLabel?: string;
  children: ReactNode;
}

export function BottomSheet({ open, onClose, title, closeLabel = 'Close', children }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const closed = useRef(onClose);
  closed.current = onClose;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    setUpSheet(element);
    const heard = () => closed.current();
    element.addEventListener('close', heard);
    return () => element.removeEventListener('close', heard);
  }, []);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open) openSheet(element);
    else closeSheet(element);
  }, [open]);

  return (
    <dialog ref={dialog} className="sheet" aria-labelledby={titleId}>
      <div className="sheet-body">
        <div className="sheet-head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="button-icon" data-sheet-close="" aria-label={closeLabel}>
            <Icon name="close" />
          </button>
        </div>
        {children}
      </div>
    </dialog>
  );
}
