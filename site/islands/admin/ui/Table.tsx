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
