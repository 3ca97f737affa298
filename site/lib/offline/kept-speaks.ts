/**
 * A member's "I speak", kept on the device by each download (translations.ts), so the reader asks offline
 * for the translations that download kept (docs/offline.md, "Practice offline"). Its own small file: the
 * reader reads it (site/lib/translation-language.ts) without loading the download code.
 */
import { speaksKey } from './names';
import { get, offlineSupported } from './store';

/** The member's "I speak" as kept at their last download; [] when none was kept (the browser's languages). */
export async function keptSpeaks(member: number): Promise<string[]> {
  if (!offlineSupported()) return [];
  try {
    const speaks = await get<unknown>('state', speaksKey(member));
    return Array.isArray(speaks) ? speaks.filter((tag): tag is string => typeof tag === 'string') : [];
  } catch {
    return [];
  }
}
