/**
 * /dashboard: the members' home (SPEC.md sections 2 and 6). The member guard lets only user_role_id 2 in;
 * everyone else, signed out or not, goes to the home page. The greeting uses the stored user, so the page
 * needs no call to the server.
 */
import { membersOnly } from '../lib/guards';
import { useGuard } from '../lib/useGuard';

export default function MemberDashboard() {
  const access = useGuard(membersOnly);
  if (access.status !== 'allowed') return <p role="status">Loading your dashboard…</p>;
  return (
    <>
      <h1>Welcome, {access.user?.name}</h1>
      <ul className="dashboard-links">
        <li>
          <a className="button" href="/lingostory">
            Browse books
          </a>
        </li>
        <li>
          <a href="/profile">Your profile</a>
        </li>
      </ul>
    </>
  );
}
