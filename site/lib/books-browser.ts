import { parseBrowseQuery } from '../../server/content/catalogue/browse-query';
import { pageHtml } from './api';
import { booksUrl } from './catalogue';

/**
 * /books without full reloads: a filter changed, a search sent or a page link followed fetches that URL's
 * page (the same HTML the server caches for everyone) and swaps in its filters and results, and the
 * address follows (pushState, so Back and Forward work). Without JavaScript the GET form and the links do
 * the same with a page load each; whatever goes wrong here (a 404, the network), the browser loads the URL
 * itself.
 */
type Focus = 'keep' | 'results' | 'none';

class BooksBrowser extends HTMLElement {
  private loading: AbortController | null = null;

  connectedCallback(): void {
    this.addEventListener('submit', (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.matches('[data-browse-form]')) return;
      const url = formUrl(form);
      if (!url) return; // Let the browser send it: the server says what is wrong with it.
      event.preventDefault();
      void this.show(url, { focus: 'results' });
    });
    this.addEventListener('change', (event) => {
      const control = event.target;
      if (!(control instanceof HTMLSelectElement) || !control.form?.matches('[data-browse-form]')) return;
      const url = formUrl(control.form);
      if (url) void this.show(url, { focus: 'keep' });
    });
    this.addEventListener('click', (event) => {
      const link = event.target instanceof Element ? event.target.closest('a[data-browse-link]') : null;
      if (!(link instanceof HTMLAnchorElement) || event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      void this.show(link.href, { focus: 'results' });
    });
    window.addEventListener('popstate', () => {
      if (location.pathname === '/books') void this.show(location.href, { focus: 'none', push: false });
    });
  }

  /**
   * Shows the page at `url` in place of this one and says how many books it found. Focus stays on the
   * control that changed (`keep`), moves to the results' heading (`results`: after a search or a page
   * link, as a page load would), or is left alone (`none`: Back and Forward).
   */
  private async show(url: string, { focus, push = true }: { focus: Focus; push?: boolean }) {
    this.loading?.abort();
    const loading = (this.loading = new AbortController());
    this.setAttribute('aria-busy', 'true');
    const page = await pageHtml(url, loading.signal).catch(() => null);
    if (loading.signal.aborted) return;
    this.loading = null;
    this.removeAttribute('aria-busy');
    const next = page && new DOMParser().parseFromString(page.html, 'text/html');
    const root = next?.querySelector('books-browser [data-browse-root]');
    if (!page || !next || !root) return location.assign(url);

    // The swap takes the focused control away with the old filters: its new copy gets the focus back (and
    // what was typed meanwhile into the search box, if it was there).
    const active = document.activeElement;
    const focused = active instanceof HTMLElement && this.contains(active) ? active.id : '';
    const typed = focused && active instanceof HTMLInputElement ? active.value : null;
    this.querySelector('[data-browse-root]')!.replaceWith(document.adoptNode(root));
    replaceHead(next);
    if (push) history.pushState(null, '', page.url);

    const target =
      focus === 'results'
        ? this.querySelector<HTMLElement>('[data-browse-results] h2')
        : focus === 'keep' && focused
          ? document.getElementById(focused)
          : null;
    if (target instanceof HTMLInputElement && typed !== null) target.value = typed;
    target?.focus();
    if (target instanceof HTMLInputElement)
      target.setSelectionRange(target.value.length, target.value.length);
    this.announce(this.querySelector('[data-browse-results] h2')?.textContent ?? '');
    // Other books are shown: a member's coverage fills them in (coverage-badges.ts).
    document.dispatchEvent(new CustomEvent('lingonovel:books-shown'));
  }

  private announce(text: string): void {
    const status = this.querySelector('[data-announce]')!;
    // Emptied first, so that the same count after another change is read again.
    status.textContent = '';
    setTimeout(() => (status.textContent = text), 100);
  }
}

/** The canonical URL the form asks for (the server would redirect there), or null when it is invalid. */
function formUrl(form: HTMLFormElement): string | null {
  const query: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) if (typeof value === 'string') query[name] = value;
  const parsed = parseBrowseQuery(query, { perPage: false });
  return parsed.ok ? booksUrl(parsed.filter) : null;
}

/** What the head says about the page (its title, canonical URL, neighbours, robots), from the new page. */
function replaceHead(next: Document): void {
  document.title = next.title;
  const selector =
    'link[rel="canonical"], link[rel="prev"], link[rel="next"], meta[name="robots"], meta[name="description"]';
  document.head.querySelectorAll(selector).forEach((element) => element.remove());
  next.head
    .querySelectorAll(selector)
    .forEach((element) => document.head.append(document.adoptNode(element)));
}

customElements.define('books-browser', BooksBrowser);
