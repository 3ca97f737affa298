/**
 * /profile: the signed-in user's real account (name, email, member since), with forms to change the name,
 * the languages they speak (SpeaksForm) and the password. It replaces docs/product.md's static sample page. Visitors who are not signed in sign in first
 * and come back here.
 */
import { useEffect, useState, type SubmitEvent } from 'react';
import { api, errorMessage } from '../lib/api';
import { signedIn } from '../lib/guards';
import { forgetPaidDownloads } from '../lib/offline/member';
import { getUser, setToken, setUser } from '../lib/session';
import { useGuard } from '../lib/useGuard';
import type { ProfileResponse } from '../../server/accounts/users/users.dto';
import type { SubscriptionSummary } from '../lib/plan';
import PlanSummary from './PlanSummary';
import { SpeaksForm } from './SpeaksForm';
import { useSubmit } from './shared/useSubmit';
import {
  ErrorSummary,
  Field,
  NewPasswordFields,
  SubmitButton,
  SuccessMessage,
  formValues,
} from './shared/Form';

/** GET user/profile has the subscription; PUT user/profile answers the profile without it. */
interface Profile extends ProfileResponse {
  subscription?: SubscriptionSummary;
}

const profileGuard = signedIn('/profile');

export default function ProfilePanel() {
  const access = useGuard(profileGuard);
  const [profile, setProfile] = useState<Profile | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    if (access.status !== 'allowed') return;
    const abort = new AbortController();
    api<{ data: Profile }>('user/profile', { signal: abort.signal })
      .then(({ data }) => setProfile(data))
      .catch((failure: unknown) => {
        if (!abort.signal.aborted) setLoadError(errorMessage(failure));
      });
    return () => abort.abort();
  }, [access.status]);

  if (loadError) return <ErrorSummary message={loadError} />;
  if (!profile) return <p role="status">Loading your profile…</p>;

  return (
    <>
      <section className="form-card" aria-labelledby="account-heading">
        <h2 id="account-heading">Account</h2>
        <dl className="account">
          <div>
            <dt>Name</dt>
            <dd>{profile.name}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>{profile.email}</dd>
          </div>
          <div>
            <dt>Member since</dt>
            <dd>
              <time dateTime={profile.created_at}>{formatDate(profile.created_at)}</time>
            </dd>
          </div>
        </dl>
      </section>
      <PlanSummary plan={profile.subscription} />
      <NameForm
        profile={profile}
        onSaved={(saved) => setProfile({ ...saved, subscription: profile.subscription })}
      />
      <SpeaksForm
        speaks={profile.speaks}
        onSaved={(saved) => setProfile({ ...saved, subscription: profile.subscription })}
      />
      <PasswordForm email={profile.email} />
    </>
  );
}

function NameForm({ profile, onSaved }: { profile: Profile; onSaved: (profile: Profile) => void }) {
  const { busy, error, success, run } = useSubmit();

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = formValues(event.currentTarget, ['name'] as const);
    const answer = await run(() =>
      api<{ message: string; data: Profile }>('user/profile', { method: 'PUT', body }),
    );
    if (!answer) return;
    onSaved(answer.data);
    // The stored user greets the member on /dashboard: keep it in step.
    setUser({ ...(getUser() ?? answer.data), name: answer.data.name });
  }

  return (
    <section className="form-card" aria-labelledby="name-heading">
      <h2 id="name-heading">Change your name</h2>
      <ErrorSummary message={error ? errorMessage(error) : null} />
      <SuccessMessage>{success && <p>{success}</p>}</SuccessMessage>
      <form method="post" onSubmit={(event) => void submit(event)}>
        <Field
          id="profile-name"
          name="name"
          label="Name"
          autoComplete="name"
          defaultValue={profile.name}
          required
          error={error?.fieldError('name')}
        />
        <div>
          <SubmitButton busy={busy}>Save name</SubmitButton>
        </div>
      </form>
    </section>
  );
}

function PasswordForm({ email }: { email: string }) {
  const { busy, error, success, run } = useSubmit();

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const body = formValues(form, ['current_password', 'password', 'confirm_password'] as const);
    const answer = await run(() =>
      api<{ message: string; token: string }>('user/change-password', { method: 'POST', body }),
    );
    if (!answer) return;
    // The change ends every older token, this browser's included: keep the new one. Chapters a plan opened
    // and kept on this device go too (docs/offline.md): whoever knew the old password may have used them.
    setToken(answer.token);
    form.reset();
    const user = getUser();
    if (user) void forgetPaidDownloads(user.id).catch(() => undefined);
  }

  return (
    <section className="form-card" aria-labelledby="password-heading">
      <h2 id="password-heading">Change your password</h2>
      <ErrorSummary message={error ? errorMessage(error) : null} />
      <SuccessMessage>{success && <p>{success}</p>}</SuccessMessage>
      <form method="post" onSubmit={(event) => void submit(event)}>
        {/* Lets password managers file the new password under the right account. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <Field
          id="profile-current-password"
          name="current_password"
          label="Current password"
          type="password"
          autoComplete="current-password"
          required
          error={error?.fieldError('current_password')}
        />
        <NewPasswordFields idPrefix="profile-new" errors={(field) => error?.fieldError(field)} />
        <div>
          <SubmitButton busy={busy}>Change password</SubmitButton>
        </div>
      </form>
    </section>
  );
}

/** Dates from the server are ISO strings; SQLite's "YYYY-MM-DD HH:MM:SS" (UTC) is accepted too. */
function formatDate(value: string): string {
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(value) ? `${value.replace(' ', 'T')}Z` : value;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'long' }).format(date);
}
