/** One inflected form and one of its lemmas, as an expansion or a list gives it. */
export interface FormLemma {
  form: string;
  lemma: string;
}

/** One decoded line of a file, without its line break; `number` counts from 1. */
export interface Line {
  text: string;
  number: number;
}

/**
 * The longest line the word-forms files may have, in bytes: far above a list's form and lemma (200
 * characters each) and any .aff rule or .dic entry met; a file with no line breaks is refused at this
 * length rather than read whole.
 */
export const MAX_LINE_BYTES = 64 * 1024;
