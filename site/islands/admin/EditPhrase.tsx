/** /admin/chapter/phrase/edit/{id}: editing one phrase, beyond the original pages (docs/product.md); its audio is optional. */
import { EditPhraseForm } from './PhraseForm';
import { AdminPage } from './ui/AdminPage';

export default function EditPhrase({ phraseId }: { phraseId: string }) {
  return (
    <AdminPage>
      <EditPhraseForm phraseId={phraseId} />
    </AdminPage>
  );
}
