import { execFile } from 'node:child_process';

/**
 * The reference voices: eSpeak NG's languages (Debian's `espeak-ng`, run as a separate process, so its GPL
 * stays out of our code). A book's language picks one by its whole tag, else by its first subtag
 * (`pt-BR` → `pt-br`, `de-AT` → `de`); a language with none falls back to the pause split
 * (docs/alignment.md, "Languages").
 */

export const ESPEAK_BIN = 'espeak-ng';

let listed: Promise<Set<string>> | null = null;

/** The languages the installed eSpeak NG speaks (empty without it), read once per process when found. */
export function espeakLanguages(bin = ESPEAK_BIN): Promise<Set<string>> {
  listed ??= new Promise((resolve) => {
    const none = () => {
      // Not kept: eSpeak NG installed later (or a slow first start) is found on the next look.
      listed = null;
      resolve(new Set());
    };
    try {
      // As long as ffmpeg's probe (publishing/imports/ffmpeg.ts): a first start on a cold, busy disk is slow.
      execFile(bin, ['--voices'], { timeout: 30_000 }, (error, stdout) => {
        if (error) return none();
        // "Pty Language       Age/Gender VoiceName          File                 Other Languages"
        const languages = stdout
          .split('\n')
          .slice(1)
          .map((line) => line.trim().split(/\s+/)[1]?.toLowerCase())
          .filter((language): language is string => Boolean(language));
        resolve(new Set(languages));
      });
    } catch {
      // Some spawn errors (ENOMEM) are thrown rather than passed to the callback. After this turn, so that
      // `listed` is cleared once `??=` has set it.
      queueMicrotask(none);
    }
  });
  return listed;
}

/** eSpeak NG's voice for a book's language (a BCP 47 tag), or null when it has none. */
export async function referenceVoice(language: string, bin = ESPEAK_BIN): Promise<string | null> {
  const known = await espeakLanguages(bin);
  const tag = language.trim().toLowerCase();
  if (known.has(tag)) return tag;
  const primary = tag.split('-')[0];
  if (known.has(primary)) return primary;
  // English's voices are named for their country only.
  if (primary === 'en' && known.has('en-us')) return 'en-us';
  if (primary === 'fr' && known.has('fr-fr')) return 'fr-fr';
  return null;
}
