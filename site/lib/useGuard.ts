import { useEffect, useState } from 'react';
import { checkGuard, type Guard } from './guards';
import type { SessionUser } from './session';

export type GuardState = { status: 'checking' } | { status: 'allowed'; user: SessionUser | null };

/**
 * Applies a guard once, when the island starts in the browser. The server cannot see localStorage, so the
 * first render (on the server and at hydration) is always 'checking' and shows nothing private.
 */
export function useGuard(guard: Guard): GuardState {
  const [state, setState] = useState<GuardState>({ status: 'checking' });
  useEffect(() => {
    const { user, redirect } = checkGuard(guard);
    if (redirect) window.location.replace(redirect);
    else setState({ status: 'allowed', user });
    // Once per page: a guard is a fixed rule, so callers may build it inline without memoising it.
  }, []);
  return state;
}
