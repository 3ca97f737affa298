/**
 * /dashboard: the members' home (docs/product.md sections 2 and 6). The member guard lets only user_role_id 2 in;
 * everyone else, signed out or not, goes to the home page. The greeting uses the stored user; the plan comes
 * from the profile call.
 */
import { useEffect, useState } from 'react';
import { api } from '../lib/api';
import { membersOnly } from '../lib/guards';
import type { SubscriptionSummary } from '../lib/plan';
import { useGuard } from '../lib/useGuard';
import PlanSummary from './PlanSummary';
import ContinueReading from './ContinueReading';
import type { StatsAnswer } from '../../server/learning/listening/listening.dto';
import ProgressStats, { type Stats } from './ProgressStats';
import { DeviceNotice } from './shared/DeviceNotice';
import { syncTimeZone } from '../lib/time-zone';
import { carryOverPlaces } from '../lib/reader/reading-progress';
import type { ProgressResponse } from '../../server/learning/reading/progress.dto';

export default function MemberDashboard() {
  const access = useGuard(membersOnly);
  const [plan, setPlan] = useState<SubscriptionSummary | undefined>();
  const [books, setBooks] = useState<ProgressResponse[] | undefined>();
  const [stats, setStats] = useState<Stats | undefined>();
  useEffect(() => {
    if (access.status !== 'allowed') return;
    // The plan is the one thing here the stored user does not know; a failure just leaves it out.
    // The stats come after the time zone is settled: they are counted in the member's days.
    api<{ data: { subscription: SubscriptionSummary; time_zone: string | null } }>('user/profile')
      .then(({ data }) => {
        setPlan(data.subscription);
        return syncTimeZone(data.time_zone);
      })
      .catch(() => undefined)
      .then(() => api<StatsAnswer>('user/stats'))
      .then(({ data }) => setStats(data))
      .catch(() => undefined);
    // A visitor's places in free chapters join the account first, then the list is read.
    carryOverPlaces()
      .catch(() => undefined)
      .then(() => api<{ data: ProgressResponse[] }>('user/progress'))
      .then(({ data }) => setBooks(data))
      .catch(() => setBooks([]));
  }, [access.status]);
  if (access.status !== 'allowed') return <p role="status">Loading your dashboard…</p>;
  return (
    <>
      <h1>Welcome, {access.user?.name}</h1>
      <DeviceNotice />
      <ul className="dashboard-links">
        <li>
          <a className="button" href="/lingostory">
            Browse books
          </a>
        </li>
        <li>
          <a className="button-secondary" href="/profile">
            Your profile
          </a>
        </li>
      </ul>
      <ContinueReading books={books} />
      <ProgressStats stats={stats} />
      {plan && (
        <div className="dashboard-plan">
          <PlanSummary plan={plan} />
        </div>
      )}
    </>
  );
}
