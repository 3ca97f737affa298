import { ErrorSummary, SuccessMessage } from '../../shared/Form';

/**
 * The outcome of an action on a list (a row deleted, the order saved): the server's message in green, or
 * the error in red. Either takes the focus, which the removed row's button can no longer hold.
 */
export function ListMessages({ message, error }: { message: string | null; error: string | null }) {
  return (
    <>
      <ErrorSummary message={error} />
      <SuccessMessage focus>{message && <p>{message}</p>}</SuccessMessage>
    </>
  );
}
