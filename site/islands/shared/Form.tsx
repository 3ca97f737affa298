/**
 * The pieces every account form shares, so that each one is accessible the same way: a label for every
 * input, hints and errors tied to their input with aria-describedby, an error summary that screen readers
 * announce and that takes the focus, a success message in a live region, and a submit button that stays
 * disabled until the island runs (a form submitted before that would go nowhere) and while a request is in
 * flight.
 */
import {
  Children,
  useEffect,
  useRef,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import '../../styles/forms.css';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'> {
  id: string;
  name: string;
  label: string;
  hint?: string;
  error?: string;
}

export function Field({ id, name, label, hint, error, ...input }: FieldProps) {
  return (
    <FieldShell id={id} label={label} hint={hint} error={error}>
      {(a11y) => <input id={id} name={name} {...a11y} {...input} />}
    </FieldShell>
  );
}

interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'name'> {
  id: string;
  name: string;
  label: string;
  hint?: string;
  error?: string;
}

/** A multi-line field (the admin forms' description, sample text and dictionary). */
export function TextAreaField({ id, name, label, hint, error, ...textarea }: TextAreaFieldProps) {
  return (
    <FieldShell id={id} label={label} hint={hint} error={error}>
      {(a11y) => <textarea id={id} name={name} {...a11y} {...textarea} />}
    </FieldShell>
  );
}

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'name'> {
  id: string;
  name: string;
  label: string;
  /** Each option's value, shown as it is, or a value with the text shown for it. */
  options: readonly (string | { value: string; label: string })[];
  hint?: string;
  error?: string;
}

export function SelectField({ id, name, label, options, hint, error, ...select }: SelectFieldProps) {
  return (
    <FieldShell id={id} label={label} hint={hint} error={error}>
      {(a11y) => (
        <select id={id} name={name} {...a11y} {...select}>
          {options.map((option) => {
            const { value, label } = typeof option === 'string' ? { value: option, label: option } : option;
            return (
              <option key={value} value={value}>
                {label}
              </option>
            );
          })}
        </select>
      )}
    </FieldShell>
  );
}

interface FieldA11y {
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/** The label, hint and error around any control, tied to it with aria-describedby. */
export function FieldShell({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  children: (a11y: FieldA11y) => ReactNode;
}) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {children({ 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

export interface SummaryLink {
  /** The id of the input the link moves to. */
  field: string;
  text: string;
}

/** The error summary's title when it lists fields: the server's own message would repeat the first one. */
export const SUMMARY_TITLE = 'There is a problem with the form:';

/** The summary's links: one per field that has an error, named as its label and with its first message. */
export function fieldErrorLinks(
  fields: readonly { name: string; id: string; label: string }[],
  error: { fieldError(name: string): string | undefined } | null,
): SummaryLink[] {
  return fields.flatMap((field) => {
    const text = error?.fieldError(field.name);
    return text ? [{ field: field.id, text: `${field.label}: ${text}` }] : [];
  });
}

/** Rendered only when there is an error: role="alert" is announced as it appears, and it takes the focus. */
export function ErrorSummary({ message, links = [] }: { message: string | null; links?: SummaryLink[] }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message) ref.current?.focus();
  }, [message]);
  if (!message) return null;
  return (
    <div ref={ref} className="form-alert" role="alert" tabIndex={-1}>
      <p>{message}</p>
      {links.length > 0 && (
        <ul>
          {links.map((link) => (
            <li key={link.field}>
              <a
                href={`#${link.field}`}
                onClick={(event) => {
                  event.preventDefault();
                  document.getElementById(link.field)?.focus();
                }}
              >
                {link.text}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * A polite live region that is always in the page, so that the message put in it is announced. With
 * `focus`, the message also takes the focus when it appears: for forms that give way to it.
 */
export function SuccessMessage({ children, focus = false }: { children?: ReactNode; focus?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  // Children.toArray drops the null and false of `{message && …}`.
  const shown = Children.toArray(children).length > 0;
  useEffect(() => {
    if (focus && shown) ref.current?.focus();
  }, [focus, shown]);
  return (
    <div role="status" className="form-status">
      {shown ? (
        <div ref={ref} className="form-success" tabIndex={focus ? -1 : undefined}>
          {children}
        </div>
      ) : null}
    </div>
  );
}

export function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  const ready = useHydrated();
  return (
    <button type="submit" className="button" disabled={!ready || busy} aria-busy={busy || undefined}>
      {children}
    </button>
  );
}

/** False on the server and at hydration, true once the island runs. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** The values of a submitted form's text fields, as strings ('' for a field it does not have). */
export function formValues<K extends string>(form: HTMLFormElement, names: readonly K[]): Record<K, string> {
  const data = new FormData(form);
  return Object.fromEntries(
    names.map((name) => {
      const value = data.get(name);
      return [name, typeof value === 'string' ? value : ''];
    }),
  ) as Record<K, string>;
}

export const PASSWORD_HINT = 'Use 8 or more characters with letters, numbers and symbols.';

/** A new password and its confirmation, as the reset wizard and the profile ask for them. */
export function NewPasswordFields({
  idPrefix,
  errors,
}: {
  idPrefix: string;
  errors?: (field: string) => string | undefined;
}) {
  return (
    <>
      <Field
        id={`${idPrefix}-password`}
        name="password"
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_HINT}
        required
        error={errors?.('password')}
      />
      <Field
        id={`${idPrefix}-confirm-password`}
        name="confirm_password"
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        required
        error={errors?.('confirm_password')}
      />
    </>
  );
}
