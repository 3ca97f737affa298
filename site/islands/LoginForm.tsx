/**
 * Sign In (docs/product.md sections 2, 4, 5, 8). Only the email is required in the browser (section 5); the server
 * answers a missing or wrong password with the 422 message shown here.
 */
import { useEffect, useState, type SubmitEvent } from 'react';
import { api, errorMessage } from '../lib/api';
import { carryOverPlaces } from '../lib/reader/reading-progress';
import {
  currentNextPath,
  getDeviceToken,
  homeFor,
  setDeviceToken,
  setSession,
  withNext,
} from '../lib/session';
import { ErrorSummary, Field, SubmitButton, formValues } from './shared/Form';

import type { LoginAnswer as LoginResponse } from '../../server/accounts/auth/auth-responses';

export default function LoginForm() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Read after hydration: the server renders the page without its query (it is the same for everyone).
  const [next, setNext] = useState<string | null>(null);
  useEffect(() => setNext(currentNextPath()), []);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = formValues(event.currentTarget, ['email', 'password'] as const);
    setBusy(true);
    setError(null);
    try {
      const device_token = getDeviceToken() ?? undefined;
      const answer = await api<LoginResponse>('user/login', {
        method: 'POST',
        body: { ...body, device_token },
      });
      const { token, user } = answer;
      setSession(token, user);
      setDeviceToken(answer.device_token);
      // Where a visitor got to in free chapters now belongs to the account.
      await carryOverPlaces().catch(() => undefined);
      const next = currentNextPath();
      // Stay busy: the button must not come back while the next page loads.
      window.location.assign(next ?? homeFor(user));
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  }

  return (
    <div className="form-card">
      <ErrorSummary message={error} />
      <form method="post" onSubmit={(event) => void submit(event)}>
        <Field id="login-email" name="email" label="Email" type="email" autoComplete="email" required />
        <Field
          id="login-password"
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
        />
        <div>
          <SubmitButton busy={busy}>Continue</SubmitButton>
        </div>
      </form>
      <p className="form-links">
        <a href={withNext('/signup', next)}>Create an account</a>
        <a href="/forgot">Forgot your password?</a>
      </p>
    </div>
  );
}
