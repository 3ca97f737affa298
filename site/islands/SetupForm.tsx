/**
 * The first run's wizard (docs/deploy.md, "First run"): the setup code from the boot log, then the first
 * administrator's name, address and password. The server decides everything (server/accounts/setup/): this page
 * asks it whether setup is still needed, and once it is done, or when it was done already, it sends the
 * person to sign in and on to the administration.
 *
 * Errors: a 422 shows the first message per field under that field, with a summary; a 404, 409 or 429
 * shows the server's message, which says what to do (restart for a code, sign in, wait).
 */
import { useEffect, useState, type SubmitEvent } from 'react';
import type { SetupStateAnswer } from '../../server/accounts/setup/setup.dto';
import { ApiError, api } from '../lib/api';
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

const SIGN_IN = '/login?next=/admin';

const FIELDS = [
  {
    name: 'code',
    id: 'setup-code',
    label: 'Setup code',
    type: 'text',
    autoComplete: 'off',
    hint: 'The server printed it at start-up: "Setup code: …".',
  },
  { name: 'name', id: 'setup-name', label: 'Your name', type: 'text', autoComplete: 'name' },
  { name: 'email', id: 'setup-email', label: 'Email', type: 'email', autoComplete: 'email' },
  {
    name: 'password',
    id: 'setup-password',
    label: 'Password',
    type: 'password',
    autoComplete: 'new-password',
    hint: PASSWORD_HINT,
  },
  {
    name: 'repeat_password',
    id: 'setup-repeat-password',
    label: 'Repeat password',
    type: 'password',
    autoComplete: 'new-password',
  },
] as const;

type FieldName = (typeof FIELDS)[number]['name'];

/** A mismatch of the two passwords, caught here: the API takes the password once. */
const mismatch = () =>
  new ApiError(422, SUMMARY_TITLE, { repeat_password: ['The two passwords do not match.'] });

export default function SetupForm() {
  const [needed, setNeeded] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [success, setSuccess] = useState<string | null>(null);

  useEffect(() => {
    api<SetupStateAnswer>('setup')
      .then((answer) => setNeeded(answer.data.needed))
      // Unknown: show the form; the server still refuses a setup that is not needed.
      .catch(() => setNeeded(true));
  }, []);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = formValues(
      event.currentTarget,
      FIELDS.map((field) => field.name),
    );
    setError(null);
    if (values.password !== values.repeat_password) return setError(mismatch());
    const body = { code: values.code, name: values.name, email: values.email, password: values.password };
    setBusy(true);
    try {
      const answer = await api<{ message: string }>('setup', { method: 'POST', body });
      setSuccess(answer.message);
    } catch (failure) {
      if (failure instanceof ApiError && [404, 409, 422, 429].includes(failure.status)) setError(failure);
      else setError(new ApiError(0, 'The server did not answer. Please try again.'));
      if (failure instanceof ApiError && failure.status === 409) setNeeded(false);
    } finally {
      setBusy(false);
    }
  }

  const fieldError = (name: FieldName) => error?.fieldError(name);
  const links = fieldErrorLinks(FIELDS, error);

  return (
    <div className="form-card">
      <ErrorSummary message={error && (links.length ? SUMMARY_TITLE : error.message)} links={links} />
      <SuccessMessage focus>
        {success && (
          <p>
            {success} <a href={SIGN_IN}>Sign in to add your first book</a>
          </p>
        )}
      </SuccessMessage>
      {needed === false && !success && (
        <p>
          Lingonovel is set up already. <a href={SIGN_IN}>Sign in</a>
        </p>
      )}
      {needed !== false && !success && (
        <form method="post" onSubmit={(event) => void submit(event)}>
          <p className="form-intro">
            Create the administrator who adds books and members, with the setup code from the server&apos;s
            start-up log.
          </p>
          {FIELDS.map((field) => (
            <Field key={field.name} {...field} required error={fieldError(field.name)} />
          ))}
          <div>
            <SubmitButton busy={busy || needed === null}>Create the administrator</SubmitButton>
          </div>
        </form>
      )}
    </div>
  );
}
