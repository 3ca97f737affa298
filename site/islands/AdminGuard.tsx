/**
 * Wraps the content of every /admin page (docs/product.md section 6): only user_type 1 sees it; everyone else goes
 * to /401. Until the check has run, nothing is shown: Astro keeps the content in a <template> meanwhile.
 * The server's checks on /api/v1/admin remain the real protection.
 *
 *   <AdminGuard client:load> …the page's content and islands… </AdminGuard>
 */
import type { ReactNode } from 'react';
import { adminOnly } from '../lib/guards';
import { useGuard } from '../lib/useGuard';

export default function AdminGuard({ children }: { children?: ReactNode }) {
  const access = useGuard(adminOnly);
  if (access.status !== 'allowed') return <p role="status">Checking your access…</p>;
  return <>{children}</>;
}
