import { Flash } from '@primer/react';
import { ApiError, errorMessage, humanizeField } from '../lib/api-error';

/** A mutation's failure above a form: GitLab validation errors as a list, anything else as one line. */
export function FormError({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const fields = error instanceof ApiError ? Object.entries(error.fieldErrors) : [];
  return (
    <Flash variant="danger" role="alert">
      {title ? <strong>{title}</strong> : null}
      {fields.length > 0 ? (
        <ul className="formErrorList">
          {fields.flatMap(([field, messages]) =>
            messages.map((message) => (
              <li key={`${field}:${message}`}>{[humanizeField(field), message].filter(Boolean).join(' ')}</li>
            )),
          )}
        </ul>
      ) : (
        <span> {errorMessage(error)}</span>
      )}
    </Flash>
  );
}

/** The first validation message GitLab gave for one field, for FormControl.Validation. */
export function fieldError(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const messages = error.fieldErrors[field];
  return messages && messages.length > 0 ? `${humanizeField(field)} ${messages.join(', ')}` : undefined;
}
