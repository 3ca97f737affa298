/** /admin/dashboard: docs/product.md's heading, and the catalogue's counts in one call. */
import { adminRoutes } from '../../lib/admin';
import { ErrorSummary } from '../shared/Form';
import { AdminPage } from './ui/AdminPage';
import { useLoad } from './ui/hooks';

import type { AdminStats as Stats } from '../../../server/publishing/admin/admin-stats.service';

const LABELS: [keyof Stats, string][] = [
  ['books', 'Books'],
  ['chapters', 'Chapters'],
  ['phrases', 'Phrases'],
  ['members', 'Members'],
];

export default function Dashboard() {
  return (
    <AdminPage>
      <h1>Admin Dashboard</h1>
      <Counts />
      <ul className="dashboard-links">
        <li>
          <a className="button" href={adminRoutes.books}>
            Books
          </a>
        </li>
        <li>
          <a className="button button-secondary" href={adminRoutes.createBook}>
            Add Book
          </a>
        </li>
        <li>
          <a className="button button-secondary" href={adminRoutes.dictionaries}>
            Dictionaries
          </a>
        </li>
      </ul>
    </AdminPage>
  );
}

function Counts() {
  const [loaded] = useLoad<Stats>('admin/stats');
  if (loaded.status === 'loading') return <p role="status">Loading the counts…</p>;
  if (loaded.status === 'failed') return <ErrorSummary message={loaded.message} />;
  const format = new Intl.NumberFormat();
  return (
    <section aria-labelledby="counts-heading">
      <h2 id="counts-heading" className="visually-hidden">
        The catalogue in numbers
      </h2>
      <dl className="stats">
        {LABELS.map(([key, label]) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd>{format.format(loaded.data[key])}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
