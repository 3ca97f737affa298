/** /admin/chapters/edit/{id}: docs/product.md's Edit Chapter, prefilled. */
import { EditChapterForm } from './ChapterForm';
import { AdminPage } from './ui/AdminPage';

export default function EditChapter({ chapterId }: { chapterId: string }) {
  return (
    <AdminPage>
      <EditChapterForm chapterId={chapterId} />
    </AdminPage>
  );
}
