/**
 * "App passwords" on /profile (docs/formats.md, App passwords): a password per reading app (KOReader,
 * Thorium) that signs in to the OPDS catalogue with HTTP Basic. The list shows name, creation and last
 * use; a new password is shown once, with a Copy button and what to type into the app; revoking asks
 * first, in place.
 *
 * Keyboard and screen readers: the new password takes the focus when it appears; a confirmation puts the
 * focus on its safe choice (Keep it); after a revocation the focus goes to the message saying so (or to
 * the name field, when a message was already shown), never lost with the row.
 *
 * The password lives in this page's state only until the member says they copied it, or leaves the page:
 * it is taken out on `pagehide`, before the back/forward cache keeps the page, so Back (after signing
 * out, too) never shows it again.
 */
import { useCallback, useEffect, useRef, useState, type SubmitEvent } from 'react';
import { flushSync } from 'react-dom';
import { api, ApiError, errorMessage } from '../lib/api';
import { getToken, getUser } from '../lib/session';
import type {
  AppPasswordCreatedAnswer,
  AppPasswordResponse,
  AppPasswordsAnswer,
  NewAppPassword,
} from '../../server/accounts/app-passwords/app-passwords.dto';
import { useSubmit } from './shared/useSubmit';
import { ErrorSummary, Field, SubmitButton, SuccessMessage, formValues } from './shared/Form';

const NAME_FIELD = 'app-password-name';
const ALREADY_REVOKED = 'It was already revoked.';

type Loaded =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; list: AppPasswordResponse[] };

export default function AppPasswords({ opdsUrl }: { opdsUrl: string }) {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [email, setEmail] = useState('');
  const [created, setCreated] = useState<NewAppPassword | null>(null);
  const [revoked, setRevoked] = useState<string | null>(null);
  const { busy, error, run } = useSubmit();

  const load = useCallback((signal?: AbortSignal) => {
    api<AppPasswordsAnswer>('user/app-passwords', { signal })
      .then(({ data }) => setLoaded({ status: 'ready', list: data }))
      .catch((failure: unknown) => {
        if (!signal?.aborted) setLoaded({ status: 'failed', message: errorMessage(failure) });
      });
  }, []);

  useEffect(() => {
    // Visitors are sent to sign in by the profile's own island.
    if (!getToken()) return;
    setEmail(getUser()?.email ?? '');
    const abort = new AbortController();
    load(abort.signal);
    return () => abort.abort();
  }, [load]);

  useEffect(() => {
    // Synchronously: the page is frozen into the back/forward cache right after this event.
    const forget = () => flushSync(() => setCreated(null));
    addEventListener('pagehide', forget);
    return () => removeEventListener('pagehide', forget);
  }, []);

  async function create(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setCreated(null);
    setRevoked(null);
    const answer = await run(() =>
      api<AppPasswordCreatedAnswer>('user/app-passwords', {
        method: 'POST',
        body: formValues(form, ['name'] as const),
      }),
    );
    if (!answer) return;
    form.reset();
    setCreated(answer.data);
    const { id, name, created_at, last_used_at } = answer.data;
    const listed: AppPasswordResponse = { id, name, created_at, last_used_at };
    setLoaded((now) => (now.status === 'ready' ? { ...now, list: [...now.list, listed] } : now));
  }

  const onRevoked = (id: number, message: string) => {
    setCreated((shown) => (shown?.id === id ? null : shown));
    setRevoked(message);
    setLoaded((now) =>
      now.status === 'ready' ? { ...now, list: now.list.filter((item) => item.id !== id) } : now,
    );
    document.getElementById(NAME_FIELD)?.focus();
    // Revoked elsewhere (another tab, another device): the list here is behind, so it is asked again.
    if (message === ALREADY_REVOKED) load();
  };

  const copied = () => {
    setCreated(null);
    document.getElementById(NAME_FIELD)?.focus();
  };

  return (
    <section className="form-card app-passwords" aria-labelledby="app-passwords-heading">
      <h2 id="app-passwords-heading">App passwords</h2>
      <p className="field-hint">
        Reading apps such as KOReader and Thorium can browse the library and download the books you may read
        from our OPDS catalogue. Give each app its own password, so you can revoke one without the others.
      </p>
      <dl className="app-settings">
        <div>
          <dt>Catalogue address (OPDS)</dt>
          <dd>
            <code>{opdsUrl}</code>
          </dd>
        </div>
        <div>
          <dt>User name</dt>
          <dd>{email || 'your email'}</dd>
        </div>
        <div>
          <dt>Password</dt>
          <dd>an app password made here</dd>
        </div>
      </dl>
      {loaded.status === 'loading' && <p role="status">Loading your app passwords…</p>}
      {loaded.status === 'failed' && <ErrorSummary message={loaded.message} />}
      {loaded.status === 'ready' && <PasswordList list={loaded.list} onRevoked={onRevoked} />}
      <SuccessMessage focus>
        {created && <NewPassword created={created} onDone={copied} />}
        {revoked && <p>{revoked}</p>}
      </SuccessMessage>
      <ErrorSummary message={error && !error.fieldError('name') ? errorMessage(error) : null} />
      <form method="post" onSubmit={(event) => void create(event)}>
        <Field
          id={NAME_FIELD}
          name="name"
          label="App name"
          hint="Which app it is for, such as KOReader on my e-reader."
          maxLength={100}
          autoComplete="off"
          required
          error={error?.fieldError('name')}
        />
        <div>
          <SubmitButton busy={busy}>Create app password</SubmitButton>
        </div>
      </form>
    </section>
  );
}

/**
 * The password, shown this once, with a Copy button and a Done button that takes it off the page. Where
 * the browser gives no clipboard (a page on plain http), the password is selected for the member to copy.
 */
function NewPassword({ created, onDone }: { created: NewAppPassword; onDone: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const shown = useRef<HTMLElement>(null);
  const select = () => {
    const selection = getSelection();
    if (!shown.current || !selection) return;
    const range = document.createRange();
    range.selectNodeContents(shown.current);
    selection.removeAllRanges();
    selection.addRange(range);
  };
  const copy = () => {
    const byHand = () => {
      select();
      setCopied(
        'Your browser would not copy it from this page: the password is selected, copy it with Ctrl+C (⌘C on a Mac).',
      );
    };
    // Only a secure page (https, or localhost) has navigator.clipboard.
    if (!navigator.clipboard?.writeText) return byHand();
    navigator.clipboard.writeText(created.password).then(() => setCopied('Copied.'), byHand);
  };
  return (
    <>
      <p>Your app password for {created.name}. Copy it into the app now: it will not be shown again.</p>
      <p className="new-password">
        <span>Password:</span> <code ref={shown}>{created.password}</code>{' '}
        <button type="button" className="copy-button button-secondary" onClick={copy}>
          Copy the password
        </button>
      </p>
      {copied && <p>{copied}</p>}
      <p>
        <button type="button" className="copy-button button-secondary" onClick={onDone}>
          Done, I&rsquo;ve copied it
        </button>
      </p>
    </>
  );
}

function PasswordList({
  list,
  onRevoked,
}: {
  list: AppPasswordResponse[];
  onRevoked: (id: number, message: string) => void;
}) {
  if (list.length === 0) return <p className="app-passwords-empty">No app passwords yet.</p>;
  return (
    <ul className="app-password-list" aria-label="Your app passwords">
      {list.map((item) => (
        <PasswordRow key={item.id} item={item} onRevoked={onRevoked} />
      ))}
    </ul>
  );
}

function PasswordRow({
  item,
  onRevoked,
}: {
  item: AppPasswordResponse;
  onRevoked: (id: number, message: string) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const revokeButton = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);

  useEffect(() => {
    if (confirming) keep.current?.focus();
    else if (asked.current) revokeButton.current?.focus();
  }, [confirming]);

  const revoke = async () => {
    setBusy(true);
    setFailed(null);
    try {
      const answer = await api<{ message: string }>(`user/app-passwords/${item.id}`, { method: 'DELETE' });
      onRevoked(item.id, answer.message);
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 404) return onRevoked(item.id, ALREADY_REVOKED);
      setFailed(errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <li>
      <div className="app-password-name">
        <strong>{item.name}</strong>
        <span>
          Created <time dateTime={item.created_at}>{formatDate(item.created_at)}</time> · Last used:{' '}
          {item.last_used_at ? (
            <time dateTime={item.last_used_at}>{formatDate(item.last_used_at)}</time>
          ) : (
            'never'
          )}
        </span>
      </div>
      {confirming ? (
        <div className="app-password-confirm" role="group" aria-label={`Revoke ${item.name}?`}>
          <p>Revoke {item.name}? The app using it will no longer sign in.</p>
          <button type="button" ref={keep} onClick={() => setConfirming(false)} disabled={busy}>
            Keep it
          </button>
          <button type="button" className="button-danger" onClick={() => void revoke()} disabled={busy}>
            Yes, revoke<span className="visually-hidden"> {item.name}</span>
          </button>
        </div>
      ) : (
        <button
          type="button"
          ref={revokeButton}
          onClick={() => {
            asked.current = true;
            setConfirming(true);
          }}
        >
          Revoke<span className="visually-hidden"> {item.name}</span>
        </button>
      )}
      {failed && (
        <p role="alert" className="field-error">
          {failed}
        </p>
      )}
    </li>
  );
}

/** A date and time for people, in the browser's language. */
function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
