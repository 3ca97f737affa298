import type { PublicBook } from '../../server/catalogue/catalogue.service';

/** ISO 8601 duration, as schema.org wants it: 2 h 35 min is "PT2H35M". */
export function isoDuration(hours: number, minutes: number): string {
  return `PT${hours > 0 ? `${hours}H` : ''}${minutes > 0 || hours === 0 ? `${minutes}M` : ''}`;
}

/** schema.org Audiobook for a book page; `<` is escaped so the JSON cannot close its script element. */
export function audiobookJsonLd(book: PublicBook, pageUrl: string, imageUrl: string): string {
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
    duration: isoDuration(book.hours, book.minutes),
    educationalLevel: book.difficulty,
    ...(book.language && { inLanguage: book.language }),
    dateModified: book.updated_at,
  };
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
