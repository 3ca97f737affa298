/**
 * A modal confirmation on the native <dialog>: the browser traps the focus inside it and closes it on
 * Escape. The safe choice (Cancel) takes the focus first; on closing, the focus goes back to what had it,
 * when that is still in the page (a deleted row's button is not: its list moves the focus itself).
 *
 *   const [dialog, confirm] = useConfirm();
 *   if (await confirm({ title: 'Delete this book?', body: '…', confirmLabel: 'Delete' })) …
 *   return <>{…}{dialog}</>;
 */
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';

export interface ConfirmOptions {
  title: string;
  body: ReactNode;
  confirmLabel: string;
}

export function useConfirm(): [ReactNode, (options: ConfirmOptions) => Promise<boolean>] {
  const [request, setRequest] = useState<{
    options: ConfirmOptions;
    resolve: (ok: boolean) => void;
  } | null>(null);
  const confirm = useCallback(
    (options: ConfirmOptions) => new Promise<boolean>((resolve) => setRequest({ options, resolve })),
    [],
  );
  const dialog = request ? (
    <ConfirmDialog
      {...request.options}
      onClose={(ok) => {
        request.resolve(ok);
        setRequest(null);
      }}
    />
  ) : null;
  return [dialog, confirm];
}

function ConfirmDialog({
  title,
  body,
  confirmLabel,
  onClose,
}: ConfirmOptions & { onClose: (ok: boolean) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = ref.current;
    dialog?.showModal();
    cancelRef.current?.focus();
    return () => {
      if (dialog?.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        // Escape: close through React, so that the promise is answered.
        event.preventDefault();
        onClose(false);
      }}
    >
      <h2 id={titleId}>{title}</h2>
      <div id={bodyId}>{body}</div>
      <div className="dialog-actions">
        <button
          ref={cancelRef}
          type="button"
          className="button button-secondary"
          onClick={() => onClose(false)}
        >
          Cancel
        </button>
        <button type="button" className="button button-danger" onClick={() => onClose(true)}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
