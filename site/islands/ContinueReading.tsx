/**
 * The dashboard's "Continue reading": the books a member has started, the most recent first, each with
 * its cover, where they are and how far through the chapter. Positions come from the server, so every
 * device shows the same.
 */
import type { ProgressResponse } from '../../server/learning/reading/progress.dto';

export default function ContinueReading({ books }: { books: ProgressResponse[] | undefined }) {
  if (!books) return null;
  return (
    <section aria-labelledby="continue-reading" className="continue-reading">
      <h2 id="continue-reading">Continue reading</h2>
      {books.length === 0 ? (
        <p>
          You have not started a book yet. <a href="/lingostory">Choose one from the catalogue</a>: the first
          chapter of every book is free.
        </p>
      ) : (
        <ul>
          {books.map((book) => (
            <li key={book.book_code}>
              <a href={`/read/${book.book_code}/${book.chapter_no}#p-${book.position}`}>
                <img src={book.image_path} alt="" width={64} height={96} loading="lazy" />
                <span>
                  <strong>{book.book_title}</strong>
                  <span>
                    Chapter {book.chapter_no}, phrase {book.position} of {book.phrase_count}
                  </span>
                  <progress
                    max={book.phrase_count}
                    value={book.position}
                    aria-label={`${book.book_title}: phrase ${book.position} of ${book.phrase_count} in chapter ${book.chapter_no}`}
                  />
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
