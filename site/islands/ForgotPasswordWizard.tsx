/**
 * Forgot Password (docs/product.md sections 2, 4, 8): one screen, three steps. (1) email, (2) the token from the
 * mail, (3) the new password and its confirmation; the last step shows the server's message.
 *
 * /resetpassword (the mailed link, ?token=…) mounts it with `readsLink`: the token is read from the address
 * in the browser, removed from it at once (so it stays out of the history and of anything copied from the
 * address bar), verified, and the wizard opens at step 3; a token that fails shows the message at step 2,
 * prefilled; no token, step 1. The server renders pages without their query string (its page cache), so
 * only the browser can tell which: until then the wizard says it is checking the link.
 * Every call is a POST, so neither tokens nor passwords travel in URLs.
 */
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import type { MessageAnswer } from '../../server/platform/common/answers';
import { api, errorMessage } from '../lib/api';
import { clearSession } from '../lib/session';
import {
  ErrorSummary,
  Field,
  NewPasswordFields,
  SubmitButton,
  SuccessMessage,
  formValues,
} from './shared/Form';

type Step = 'email' | 'token' | 'password' | 'done' | 'checking-link';

const STEP_TITLES: Record<Step, string> = {
  email: 'Step 1 of 3: your email',
  token: 'Step 2 of 3: the token from the email',
  password: 'Step 3 of 3: a new password',
  done: 'Password changed',
  'checking-link': 'Checking your link',
};

type Message = MessageAnswer;

export default function ForgotPasswordWizard({ readsLink = false }: { readsLink?: boolean }) {
  const [step, setStep] = useState<Step>(readsLink ? 'checking-link' : 'email');
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // No focus move on the first render, nor when a page without a link settles on step 1.
  const skipFocus = useRef(true);

  // Each new step takes the focus on its heading, so keyboard and screen reader users know where they are;
  // unless it comes with an error, whose summary takes the focus instead.
  useEffect(() => {
    if (skipFocus.current) {
      skipFocus.current = false;
      return;
    }
    if (!error) heading.current?.focus();
  }, [step]);

  useEffect(() => {
    if (!readsLink) return;
    const url = new URL(window.location.href);
    const linked = url.searchParams.get('token') ?? '';
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    if (!linked) {
      skipFocus.current = true;
      setStep('email');
      return;
    }
    setToken(linked);
    void verify(linked);
    // Runs once: the link is read a single time.
  }, []);

  /** One call per step: clear the messages, send, then move on or show the error (docs/product.md section 4). */
  async function send(
    path: string,
    body: Record<string, string>,
    next: Step,
    failedAt: Step = step,
    onSuccess?: () => void,
  ) {
    setBusy(true);
    setError(null);
    setSuccess(null);
    try {
      const { message } = await api<Message>(path, { method: 'POST', body });
      onSuccess?.();
      setSuccess(message);
      setStep(next);
    } catch (failure) {
      setError(errorMessage(failure));
      setStep(failedAt);
    } finally {
      setBusy(false);
    }
  }

  function verify(verificationToken: string) {
    return send(
      'user/verify-password-recovery-token',
      { verification_token: verificationToken },
      'password',
      'token',
    );
  }

  function submitEmail(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    void send('user/password-recovery-token', formValues(event.currentTarget, ['email'] as const), 'token');
  }

  function submitToken(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = formValues(event.currentTarget, ['verification_token'] as const).verification_token.trim();
    setToken(value);
    void verify(value);
  }

  function submitPassword(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = formValues(event.currentTarget, ['password', 'confirm_password'] as const);
    // A reset ends every session of the account. /resetpassword has no guest-only guard, so this browser
    // may hold one: drop it rather than look signed in with a dead token.
    void send(
      'user/reset-password-using-token',
      { ...values, verification_token: token },
      'done',
      step,
      clearSession,
    );
  }

  function startOver() {
    setError(null);
    setSuccess(null);
    setToken('');
    setStep('email');
  }

  return (
    <div className="form-card">
      <h2 ref={heading} tabIndex={-1}>
        {STEP_TITLES[step]}
      </h2>
      <ErrorSummary message={error} />
      <SuccessMessage>
        {success && <p>{success}</p>}
        {step === 'done' && (
          <p>
            <a href="/login">Sign in with your new password</a>
          </p>
        )}
      </SuccessMessage>

      {step === 'checking-link' && <p>One moment while we check the link from your email…</p>}

      {step === 'email' && (
        <form method="post" onSubmit={submitEmail}>
          <p className="field-hint">We will email you a token to reset your password.</p>
          <Field id="forgot-email" name="email" label="Email" type="email" autoComplete="email" required />
          <div>
            <SubmitButton busy={busy}>Send token</SubmitButton>
          </div>
        </form>
      )}

      {step === 'token' && (
        <form method="post" onSubmit={submitToken}>
          <Field
            id="forgot-token"
            name="verification_token"
            label="Token"
            hint="Paste the token from the email we sent you."
            autoComplete="one-time-code"
            spellCheck={false}
            autoCapitalize="none"
            defaultValue={token}
            required
          />
          <div>
            <SubmitButton busy={busy}>Verify token</SubmitButton>
          </div>
        </form>
      )}

      {step === 'password' && (
        <form method="post" onSubmit={submitPassword}>
          <NewPasswordFields idPrefix="forgot" />
          <div>
            <SubmitButton busy={busy}>Reset password</SubmitButton>
          </div>
        </form>
      )}

      {(step === 'token' || step === 'password') && (
        <p className="form-links">
          <button type="button" className="link-button" onClick={startOver}>
            Start again with another email
          </button>
        </p>
      )}
      {step === 'email' && (
        <p className="form-links">
          <a href="/login">Back to sign in</a>
        </p>
      )}
    </div>
  );
}
