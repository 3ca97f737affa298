/**
 * Sign Up (docs/product.md sections 2, 5, 8). All four fields are required in the browser; the password hint is
 * advice only, the server enforces the rules.
 *
 * On success the member is signed in (the answer is the login answer) and goes back where they came from:
 * the `next` page, checked by the same safe-path rule as sign-in (a locked chapter that sent them here), or
 * their home. The server's message shows while the next page loads.
 *
 * Errors: a 422 shows the first message per field under that field, with a summary linking to each. A 429
 * shows the server's message, because a silent refusal would leave people retrying. Any other failure
 * shows nothing, as docs/product.md section 8 says for signup.
 */
import { useEffect, useState, type SubmitEvent } from 'react';
import type { SignupAnswer } from '../../server/accounts/auth/auth-responses';
import { ApiError, api } from '../lib/api';
import { carryOverPlaces } from '../lib/reader/reading-progress';
import { currentNextPath, homeFor, setDeviceToken, setSession, withNext } from '../lib/session';
import {
  ErrorSummary,
  Field,
  PASSWORD_HINT,
  SubmitButton,
  SuccessMessage,
  fieldErrorLinks,
  formValues,
  SUMMARY_TITLE,
} from './shared/Form';

const FIELDS = [
  { name: 'name', id: 'signup-name', label: 'Name', type: 'text', autoComplete: 'name' },
  { name: 'email', id: 'signup-email', label: 'Email', type: 'email', autoComplete: 'email' },
  {
    name: 'password',
    id: 'signup-password',
    label: 'Password',
    type: 'password',
    autoComplete: 'new-password',
    hint: PASSWORD_HINT,
  },
  {
    name: 'repeat_password',
    id: 'signup-repeat-password',
    label: 'Repeat password',
    type: 'password',
    autoComplete: 'new-password',
  },
] as const;

type FieldName = (typeof FIELDS)[number]['name'];

export default function SignupForm() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  // Read after hydration: the server renders the page without its query (it is the same for everyone).
  const [next, setNext] = useState<string | null>(null);
  useEffect(() => setNext(currentNextPath()), []);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = formValues(
      event.currentTarget,
      FIELDS.map((field) => field.name),
    );
    setBusy(true);
    setError(null);
    setSuccess(null);
    try {
      const answer = await api<SignupAnswer>('user/signup', { method: 'POST', body });
      setSession(answer.token, answer.user);
      setDeviceToken(answer.device_token);
      setSuccess(answer.message);
      // Where a visitor got to in free chapters now belongs to the account, as at sign-in.
      await carryOverPlaces().catch(() => undefined);
      // Stays busy: the form must not come back while the next page loads.
      window.location.assign(currentNextPath() ?? homeFor(answer.user));
    } catch (failure) {
      if (failure instanceof ApiError && (failure.status === 422 || failure.status === 429))
        setError(failure);
      setBusy(false);
    }
  }

  const fieldError = (name: FieldName) => error?.fieldError(name);
  const links = fieldErrorLinks(FIELDS, error);

  return (
    <div className="form-card">
      {/* With field errors the summary lists them; the server's message would only repeat the first one. */}
      <ErrorSummary message={error && (links.length ? SUMMARY_TITLE : error.message)} links={links} />
      <SuccessMessage focus>{success && <p>{success}</p>}</SuccessMessage>
      {!success && (
        <>
          <form method="post" onSubmit={(event) => void submit(event)}>
            {FIELDS.map((field) => (
              <Field key={field.name} {...field} required error={fieldError(field.name)} />
            ))}
            <div>
              <SubmitButton busy={busy}>Submit</SubmitButton>
            </div>
          </form>
          <p className="form-links">
            <a href={withNext('/login', next)}>Already have an account? Sign in</a>
          </p>
        </>
      )}
    </div>
  );
}
