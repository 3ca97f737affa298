/**
 * The frame of every admin island: the admin guard of docs/product.md section 6 (only user_type 1; everyone else
 * goes to /401) and the admin styles. What is inside mounts only once the guard has let the user in, so
 * no admin call leaves the browser before that.
 */
import type { ReactNode } from 'react';
import AdminGuard from '../../AdminGuard';
import '../../../styles/forms.css';
import '../../../styles/admin.css';

export function AdminPage({ children }: { children: ReactNode }) {
  return <AdminGuard>{children}</AdminGuard>;
}
