/**
 * The dictionaries the lookups use (GET admin/dictionary): name, languages, entries, format and the
 * attribution shown under each lookup; Replace and Delete per row. With none yet, it says what to import.
 */
import { adminRoutes, languageName } from '../../lib/admin';
import { formatCount, formatDay, type DictionaryRow } from './DictionaryFiles';
import { useConfirm } from './ui/ConfirmDialog';
import { ListMessages } from './ui/ListMessages';
import { EmptyRow, StatusRows, TableScroll } from './ui/Table';
import type { Loaded } from './ui/hooks';
import { useDeleter } from './ui/useDeleter';

const COLUMNS = 6;

const FORMATS: Record<string, string> = { dictd: 'dictd', stardict: 'StarDict', tsv: 'TSV', csv: 'CSV' };

export function DictionaryList({
  loaded,
  onDeleted,
  onReplace,
}: {
  loaded: Loaded<DictionaryRow[]>;
  onDeleted: (id: number) => void;
  onReplace: (dictionary: DictionaryRow) => void;
}) {
  const [dialog, confirm] = useConfirm();
  const deleter = useDeleter(confirm);
  const dictionaries = loaded.status === 'ready' ? loaded.data : [];

  function remove(dictionary: DictionaryRow) {
    void deleter.remove(
      dictionary.id,
      `admin/dictionary/${dictionary.id}`,
      {
        title: `Delete “${dictionary.name}”?`,
        body: (
          <p>
            Its {formatCount(dictionary.entries)} entries go, and lookups stop finding them. Words learners
            have saved keep their meanings. This cannot be undone.
          </p>
        ),
        confirmLabel: 'Delete dictionary',
      },
      () => onDeleted(dictionary.id),
      `“${dictionary.name}” has been deleted.`,
    );
  }

  return (
    <section aria-labelledby="dictionaries-heading">
      <h2 id="dictionaries-heading">Dictionaries</h2>
      <ListMessages message={deleter.message} error={deleter.error} />
      <TableScroll label="Table of the dictionaries">
        <table className="admin-table">
          <caption className="visually-hidden">Dictionaries</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Languages</th>
              <th scope="col">Entries</th>
              <th scope="col">Format</th>
              <th scope="col">Attribution</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            <StatusRows loaded={loaded} columns={COLUMNS} loading="Loading the dictionaries…" empty={null} />
            {loaded.status === 'ready' && dictionaries.length === 0 && (
              <EmptyRow columns={COLUMNS}>
                No dictionary yet: lookups only find the books’ glossaries. Import one below, such as
                FreeDict’s from Debian’s dict-freedict-* packages (its .index and .dict.dz files are in
                /usr/share/dictd/).{' '}
                <a href={`${adminRoutes.dictionaries}#dictionary-import-heading`}>Import a dictionary</a>
              </EmptyRow>
            )}
            {dictionaries.map((dictionary) => (
              <tr key={dictionary.id}>
                <th scope="row">
                  {dictionary.name}
                  {dictionary.updated_at && (
                    <span className="row-note">Updated {formatDay(dictionary.updated_at)}</span>
                  )}
                </th>
                <td data-label="Languages">
                  {languageName(dictionary.source)} to {languageName(dictionary.target)}
                </td>
                <td data-label="Entries" className="nowrap">
                  {formatCount(dictionary.entries)}
                </td>
                <td data-label="Format">{FORMATS[dictionary.format] ?? dictionary.format}</td>
                <td data-label="Attribution">
                  <p className="clamp multiline">{dictionary.attribution || dictionary.licence || 'None'}</p>
                </td>
                <td className="actions-cell">
                  <ul className="row-actions">
                    <li>
                      <button
                        type="button"
                        className="link-button"
                        data-replace={dictionary.id}
                        onClick={() => onReplace(dictionary)}
                      >
                        Replace<span className="visually-hidden"> {dictionary.name}</span>
                      </button>
                    </li>
                    <li>
                      <button
                        type="button"
                        className="link-button danger"
                        disabled={deleter.pending === dictionary.id}
                        onClick={() => remove(dictionary)}
                      >
                        {deleter.pending === dictionary.id ? 'Deleting…' : 'Delete'}
                        <span className="visually-hidden"> {dictionary.name}</span>
                      </button>
                    </li>
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {dialog}
    </section>
  );
}
