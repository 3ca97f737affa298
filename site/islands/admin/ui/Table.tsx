import type { ReactNode } from 'react';

/**
 * A wide table that scrolls sideways on small screens. The scrolling box can take the focus, so that it
 * scrolls with the keyboard too, and is named after the table.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** The single row of an empty table: the server's 404 message, or a friendlier "nothing yet". */
export function EmptyRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={columns} className="empty-row">
        {children}
      </td>
    </tr>
  );
}

/** The rows a list shows instead of its items: while loading, the server's message on failure, or none yet. */
export function StatusRows({
  loaded,
  columns,
  loading,
  empty,
}: {
  loaded: { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready' };
  columns: number;
  loading: string;
  /** Shown when the list loaded but holds nothing; null while it has items. */
  empty: string | null;
}) {
  if (loaded.status === 'loading') {
    return (
      <EmptyRow columns={columns}>
        <span role="status">{loading}</span>
      </EmptyRow>
    );
  }
  if (loaded.status === 'failed') return <EmptyRow columns={columns}>{loaded.message}</EmptyRow>;
  return empty ? <EmptyRow columns={columns}>{empty}</EmptyRow> : null;
}
