/**
 * "You know 87% of its words" on a member's book cards and book page (docs/word-status.md, "Coverage"):
 * the pages are the same cached HTML for everyone; a member's browser asks `GET user/coverage` for the
 * books on the page (100 at a time) and writes each share under its book. Loaded for members only
 * (coverage-loader.ts). A book the member has no known word of says nothing.
 */
import { api } from './api';

const PER_REQUEST = 100;
type Coverage = Record<string, { known_share: number; unknown_words: number }>;

/**
 * The text for a share: whole percents, never "100%" while a word is still unknown, and "under 1%" rather
 * than "0%" once a word is known.
 */
export function coverageText(share: number, unknown: number): string {
  const percent = unknown > 0 ? Math.min(99, Math.floor(share * 100)) : Math.round(share * 100);
  return percent === 0 && share > 0 ? 'You know under 1% of its words' : `You know ${percent}% of its words`;
}

async function fill(root: ParentNode): Promise<void> {
  const places = [...root.querySelectorAll<HTMLElement>('[data-coverage-of]')].filter(
    (place) => place.dataset.covered !== 'true',
  );
  const codes = [...new Set(places.map((place) => place.dataset.coverageOf!))];
  for (let at = 0; at < codes.length; at += PER_REQUEST) {
    const batch = codes.slice(at, at + PER_REQUEST);
    // Passive: a member whose session ended is not sent to sign in from a public page.
    const answer = await api<{ data: Coverage }>(
      `user/coverage?books=${batch.map(encodeURIComponent).join(',')}`,
      {
        passive: true,
      },
    );
    for (const place of places) {
      const found = answer.data[place.dataset.coverageOf!];
      if (!found || found.known_share === 0) continue;
      const line = document.createElement('p');
      line.className = 'book-coverage';
      line.textContent = coverageText(found.known_share, found.unknown_words);
      place.append(line);
      place.dataset.covered = 'true';
    }
  }
}

/** Fills the page's places now, and again when the book browser shows other books. */
export function showCoverage(): void {
  void fill(document).catch(() => undefined);
  document.addEventListener('lingonovel:books-shown', () => void fill(document).catch(() => undefined));
}
