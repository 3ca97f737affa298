/**
 * /admin/chapter/phrase/import/{chapter_id}: a whole chapter in one step (docs/import.md). The
 * administrator drops or chooses the text and the clips (a zip, many files or a folder) or one recording
 * of the chapter, sees every row before anything is saved, problems marked on their rows, moves a
 * recording's boundaries if needed, then commits or discards. Each step is a component of its own
 * (ImportFilesForm, AligningProgress, ImportPreview); the state and the API calls are useChapterImport's.
 */
import { adminRoutes } from '../../lib/admin';
import { ErrorSummary, SuccessMessage } from '../shared/Form';
import { AdminPage } from './ui/AdminPage';
import { Breadcrumb } from './ui/Breadcrumb';
import { AligningProgress } from './AligningProgress';
import { ImportFilesForm } from './ImportFilesForm';
import { ImportPreview } from './ImportPreview';
import { useChapterImport } from './useChapterImport';

export default function ImportPhrases({ chapterId }: { chapterId: string }) {
  return (
    <AdminPage>
      <Importer chapterId={chapterId} />
    </AdminPage>
  );
}

function Importer({ chapterId }: { chapterId: string }) {
  const importer = useChapterImport(chapterId);
  const { chapter, preview, aligning, lookFailed, bounds, setBounds, moved, busy, saved } = importer;
  const { error, done, readerUrl, saveBoundaries, commit, discard } = importer;
  const title =
    chapter.status === 'ready' ? `${chapter.data.book_title}, chapter ${chapter.data.chapter_no}` : '';
  return (
    <>
      <Breadcrumb
        items={[
          { label: 'Books', href: adminRoutes.books },
          { label: 'Phrase List', href: adminRoutes.phrases(chapterId) },
          { label: 'Import phrases' },
        ]}
      />
      <h1>Import phrases</h1>
      {title && <p className="lead">{title}</p>}
      <ErrorSummary message={error} />
      <SuccessMessage focus>
        {done && (
          <>
            {done} {readerUrl && <a href={readerUrl}>Open in the reader</a>}
            {readerUrl && ' · '}
            <a href={adminRoutes.phrases(chapterId)}>Back to the Phrase List</a>
          </>
        )}
      </SuccessMessage>
      {aligning && (
        <AligningProgress aligning={aligning} unreachable={lookFailed} onDiscard={() => void discard()} />
      )}
      {!preview && !aligning && <ImportFilesForm importer={importer} />}
      {preview && (
        <ImportPreview
          preview={preview}
          bounds={bounds}
          onBounds={setBounds}
          busy={busy}
          moved={moved}
          saved={saved}
          onSaveBoundaries={(next) => saveBoundaries(next)}
          onCommit={(confirm) => void commit(confirm)}
          onDiscard={() => void discard()}
        />
      )}
    </>
  );
}
