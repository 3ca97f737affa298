/** Loads the coverage of the page's books for a member only: a visitor's page carries none of its code. */
import { getToken } from './session';

export function memberCoverage(): void {
  if (!getToken()) return;
  void import('./coverage-badges').then((module) => module.showCoverage()).catch(() => undefined);
}
