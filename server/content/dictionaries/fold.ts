/**
 * A word case- and accent-folded: "Árbol" and "arbol" meet as "arbol". Decomposes (NFD), drops the
 * combining marks and lower-cases without a locale, so the key is the same on every server. The import
 * stores it per headword and the lookup's last step compares it (docs/dictionaries.md).
 */
export function foldWord(word: string): string {
  return word
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .normalize('NFC');
}
