import type { MouseEvent } from 'react';

/**
 * Previous and next links of a paged list. They are real links (a new tab works); a plain click lets the
 * island change the page in place instead of loading the whole page again.
 */
export function Pager({
  label,
  page,
  pages,
  href,
  go,
}: {
  label: string;
  page: number;
  pages: number;
  /** The URL of a page, for the links. */
  href: (page: number) => string;
  go: (page: number) => void;
}) {
  if (pages <= 1 && page <= 1) return null;
  const link = (to: number, text: string, rel: 'prev' | 'next') => {
    const follow = (event: MouseEvent<HTMLAnchorElement>) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      go(to);
    };
    return (
      <a href={href(to)} rel={rel} onClick={follow}>
        {text}
      </a>
    );
  };
  return (
    <nav className="pager" aria-label={label}>
      {page > 1 ? link(Math.min(page - 1, pages), 'Previous page', 'prev') : <span aria-hidden="true" />}
      <p>
        Page {page.toLocaleString('en-US')} of {pages.toLocaleString('en-US')}
      </p>
      {page < pages ? link(page + 1, 'Next page', 'next') : <span aria-hidden="true" />}
    </nav>
  );
}
