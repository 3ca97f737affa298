/**
 * /admin/dictionaries: the dictionaries and word forms behind the reader's lookups (docs/dictionaries-admin.md).
 * The list with Replace and Delete, the import form, then the word forms.
 */
import { useState } from 'react';
import { adminRoutes } from '../../lib/admin';
import type { DictionaryRow } from './DictionaryFiles';
import { DictionaryList } from './DictionaryList';
import { DictionaryReplace } from './DictionaryReplace';
import { DictionaryUpload } from './DictionaryUpload';
import { WordFormsPanel } from './WordFormsPanel';
import { AdminPage } from './ui/AdminPage';
import { Breadcrumb } from './ui/Breadcrumb';
import { useLoad } from './ui/hooks';

export default function Dictionaries() {
  return (
    <AdminPage>
      <DictionariesPage />
    </AdminPage>
  );
}

function DictionariesPage() {
  const [loaded, update] = useLoad<DictionaryRow[]>('admin/dictionary');
  const [replacing, setReplacing] = useState<DictionaryRow | null>(null);

  /** A dictionary's new state (imported or replaced) takes its row's place, or joins the list. */
  const keep = (dictionary: DictionaryRow) =>
    update((list) =>
      list.some((item) => item.id === dictionary.id)
        ? list.map((item) => (item.id === dictionary.id ? { ...item, ...dictionary } : item))
        : [...list, dictionary],
    );

  return (
    <>
      <Breadcrumb items={[{ label: 'Dashboard', href: adminRoutes.dashboard }, { label: 'Dictionaries' }]} />
      <h1>Dictionaries</h1>
      <p className="lead">
        Learners tap any word in the reader: its lookup shows the book’s glossary, then these dictionaries’
        entries for the word and its headwords, with each dictionary’s attribution.
      </p>
      <DictionaryList
        loaded={loaded}
        onReplace={setReplacing}
        onDeleted={(id) => {
          update((list) => list.filter((item) => item.id !== id));
          if (replacing?.id === id) setReplacing(null);
        }}
      />
      {replacing && (
        <DictionaryReplace
          key={replacing.id}
          dictionary={replacing}
          onReplaced={keep}
          onCancel={() => {
            // The focus goes back to the row's Replace button, not to the top of the page.
            const id = replacing.id;
            setReplacing(null);
            requestAnimationFrame(() =>
              document.querySelector<HTMLButtonElement>(`button[data-replace="${id}"]`)?.focus(),
            );
          }}
        />
      )}
      <DictionaryUpload onImported={keep} />
      <WordFormsPanel />
    </>
  );
}
