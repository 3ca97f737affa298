import { errorMessage, type ApiError } from '../../../lib/api';
import { ErrorSummary } from '../../shared/Form';

/**
 * The red summary above a form (docs/product.md section 8): the server's message for a 422, 413 or 429, the
 * generic one otherwise, and a link to each field the server refused. `fields` maps the API's field
 * names to the inputs' ids and labels.
 */
export function FormErrors({
  error,
  fields,
}: {
  error: ApiError | null;
  fields: Record<string, { id: string; label: string }>;
}) {
  const links = error
    ? Object.entries(fields).flatMap(([name, { id, label }]) => {
        const message = error.fieldError(name);
        return message ? [{ field: id, text: `${label}: ${message}` }] : [];
      })
    : [];
  return <ErrorSummary message={error ? errorMessage(error) : null} links={links} />;
}
