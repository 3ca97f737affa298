/**
 * The words of a phrase, as the reader offers them to look up (docs/practice.md, "Word lookups"): the
 * book language's own word boundaries (`Intl.Segmenter`, word granularity, word-like segments only), so
 * Japanese, Chinese or Thai split into words as French does. Part of the reader's first script: small, and
 * run on a phrase only when a pointer first comes over it (or the keyboard asks for its words).
 *
 * A browser without `Intl.Segmenter` (Firefox before 125, so ESR 115) wraps no words: a tap anywhere on a
 * phrase plays it, as before lookups; its words list (W, the Words button) splits at spaces and punctuation.
 */

import { wordSegmenter } from '../../../server/platform/common/running-words';

/** The class of a word's element: a plain inline <span>, part of the phrase's text. */
export const WORD_CLASS = 'w';

/** Letters and digits, an apostrophe inside a word kept (m’appelle): the list's words without a segmenter. */
const PLAIN_WORD = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}\p{N}]+)*/gu;

/** The words of a text, in order, repeats included. */
export function wordsOf(text: string, lang: string): string[] {
  const words = wordSegmenter(lang);
  if (!words) return text.match(PLAIN_WORD) ?? [];
  return [...words.segment(text)].filter((part) => part.isWordLike).map((part) => part.segment);
}

/** The words of a text once each, in order of first appearance (the keyboard's list). */
export function distinctWords(text: string, lang: string): string[] {
  return [...new Set(wordsOf(text, lang))];
}

/**
 * Wraps each word of the element's text in a <span class="w">, once: the text, its spaces and
 * punctuation stay as they were (the same text content), and elements inside it are kept. Without a
 * segmenter, nothing is wrapped.
 */
export function wrapWords(element: HTMLElement, lang: string): void {
  const words = wordSegmenter(lang);
  if (!words || element.dataset.words === 'wrapped') return;
  element.dataset.words = 'wrapped';
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
  for (const text of texts) {
    const parts = [...words.segment(text.data)];
    if (!parts.some((part) => part.isWordLike)) continue;
    const fragment = document.createDocumentFragment();
    for (const part of parts) {
      if (!part.isWordLike) {
        fragment.append(part.segment);
        continue;
      }
      const span = document.createElement('span');
      span.className = WORD_CLASS;
      span.textContent = part.segment;
      fragment.append(span);
    }
    text.replaceWith(fragment);
  }
}
