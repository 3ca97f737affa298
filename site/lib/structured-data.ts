import type { PublicBook } from '../../server/content/catalogue/catalogue.service';

/**
 * A length as an ISO 8601 duration, as schema.org wants it, to the nearest second and at least one
 * (35,012 ms is "PT35S", 3,865,000 ms "PT1H4M25S"); the parts that are zero are left out ("PT2H"). Whole
 * seconds, since clips are measured to the millisecond but no reader of the JSON-LD needs more.
 */
export function isoDuration(ms: number): string {
  const total = Math.max(1, Math.round(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return `PT${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${seconds ? `${seconds}S` : ''}`;
}

/**
 * A book's length in ms: the sum of its clips (`duration_ms`) once it has some, else the hours and minutes
 * the administrator typed (docs/catalogue.md, "A book's length"); null when that is zero too.
 */
function lengthMs(book: PublicBook): number | null {
  const ms = book.duration_ms ?? (book.hours * 60 + book.minutes) * 60_000;
  return ms > 0 ? ms : null;
}

/**
 * schema.org Audiobook for a book page; `<` is escaped so the JSON cannot close its script element. The
 * educational level is the CEFR level; the difficulty (Easy, Medium, Hard) is the site's own scale, which
 * no schema.org property of a book describes, so it is left out (docs/catalogue.md, "Pages and metadata").
 */
export function audiobookJsonLd(book: PublicBook, pageUrl: string, imageUrl: string): string {
  const ms = lengthMs(book);
  const data = {
    '@context': 'https://schema.org',
    '@type': 'Audiobook',
    '@id': pageUrl,
    url: pageUrl,
    name: book.title,
    author: { '@type': 'Person', name: book.author },
    readBy: { '@type': 'Person', name: book.narrated_by },
    description: book.description,
    image: imageUrl,
    ...(ms !== null && { duration: isoDuration(ms) }),
    ...(book.cefr && { educationalLevel: book.cefr }),
    ...(book.language && { inLanguage: book.language }),
    dateModified: book.updated_at,
  };
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
