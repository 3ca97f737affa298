/** Loads the coverage of the page's books for a member only: a visitor's page carries none of its code. */
import { getToken } from './session';

export function memberCoverage(): void {
  if (!getToken()) return;
  void import('./coverage-badges').then((module) => module.showCoverage()).catch(() => undefined);
  // /books' sort "Best for me" (best-for-me.ts).
  if (location.pathname === '/books')
    void import('./best-for-me').then((module) => module.bestForMe()).catch(() => undefined);
}
