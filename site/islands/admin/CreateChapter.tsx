/** /admin/books/chapter/create/{book_id}: docs/product.md's Add Chapter. */
import { AddChapterForm } from './ChapterForm';
import { AdminPage } from './ui/AdminPage';

export default function CreateChapter({ bookId }: { bookId: string }) {
  return (
    <AdminPage>
      <AddChapterForm bookId={bookId} />
    </AdminPage>
  );
}
