/** /admin/chapter/phrase/create/{chapter_id}: docs/product.md's Add Phrase. */
import { AddPhraseForm } from './PhraseForm';
import { AdminPage } from './ui/AdminPage';

export default function CreatePhrase({ chapterId }: { chapterId: string }) {
  return (
    <AdminPage>
      <AddPhraseForm chapterId={chapterId} />
    </AdminPage>
  );
}
