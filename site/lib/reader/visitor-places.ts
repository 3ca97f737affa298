/**
 * A visitor's places (chapter 1 only), kept in this browser until they sign in (reading-progress.ts
 * carries them over). Apart from the API client, so that a visitor's book page reads its "Continue" link
 * without loading it (docs/benchmarks.md, the book page's JS budget).
 */
import type { Place } from './reading-progress';

const VISITOR_KEY = 'reading-progress';

export function visitorPlaces(): Record<string, Place> {
  try {
    return JSON.parse(localStorage.getItem(VISITOR_KEY) ?? '{}') as Record<string, Place>;
  } catch {
    return {};
  }
}

export function keepVisitorPlaces(places: Record<string, Place>): void {
  try {
    localStorage.setItem(VISITOR_KEY, JSON.stringify(places));
  } catch {
    // Storage blocked: the place is simply not remembered.
  }
}
