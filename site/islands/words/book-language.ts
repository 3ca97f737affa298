/**
 * The language of a card's book, for the `lang` of the phrase and term it shows (WCAG 3.1.2: a screen
 * reader then reads a French phrase in French). Undefined, and no `lang`, when the card does not carry
 * it: cards kept on a device before it was sent, or a server that does not send it.
 */
export const bookLanguage = (card: object): string | undefined =>
  'language' in card && typeof card.language === 'string' && card.language ? card.language : undefined;
