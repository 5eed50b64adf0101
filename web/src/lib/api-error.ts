/**
 * GitLab answers failures as `{"message": string}`, `{"message": {field: [errors]}}`
 * or `{"error": string, "error_description"?: string}` (doc/api/rest/troubleshooting.md).
 * This module turns any of them, or a network failure, into one typed error.
 */
export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    /** HTTP status; 0 when the request never got an answer. */
    readonly status: number,
    message: string,
    /** Validation errors by field, when GitLab sent `{"message": {field: [...]}}`. */
    readonly fieldErrors: FieldErrors = {},
  ) {
    super(message);
  }

  get isNotFound(): boolean {
    return this.status === 404;
  }

  get isUnauthorized(): boolean {
    return this.status === 401;
  }
}

/** Fallback text when the body says nothing useful. */
export function messageForStatus(status: number): string {
  if (status === 0) return 'Network error: the server could not be reached.';
  if (status === 400) return 'The request was invalid.';
  if (status === 401) return 'You need to sign in or sign up before continuing.';
  if (status === 403) return 'You are not allowed to do this.';
  if (status === 404) return 'The page could not be found or you don’t have permission to view it.';
  if (status === 409) return 'This conflicts with a change made elsewhere. Reload and try again.';
  if (status === 413) return 'The request is too large.';
  if (status === 429) return 'Too many requests. Wait a little and try again.';
  if (status >= 500) return 'Something went wrong on our end. Try again later.';
  return `Request failed with status ${status}.`;
}

/** "name" → "Name", "namespace_id" → "Namespace id", "base" → "" (GitLab's full-message style). */
export function humanizeField(field: string): string {
  if (field === 'base') return '';
  // A project feature's error names its nested attribute (`project_feature.merge_requests_access_level`): the feature.
  const name = field.replace(/^project_feature\.(.+)_access_level$/, (_, feature: string) => (feature === 'builds' ? 'CI/CD' : feature));
  const words = name.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function isFieldErrors(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function normalizeFieldErrors(raw: Record<string, unknown>): FieldErrors {
  const result: FieldErrors = {};
  for (const [field, errors] of Object.entries(raw)) {
    const list = Array.isArray(errors) ? errors : [errors];
    result[field] = list.filter((e): e is string | number => typeof e === 'string' || typeof e === 'number').map(String);
  }
  return result;
}

/** "Name has already been taken. Path can contain only letters…" */
export function fieldErrorsSentence(fieldErrors: FieldErrors): string {
  return Object.entries(fieldErrors)
    .flatMap(([field, errors]) => errors.map((error) => [humanizeField(field), error].filter(Boolean).join(' ')))
    .join('. ');
}

/** Builds the ApiError for a failed response from its status and (parsed JSON or text) body. */
export function apiErrorFromBody(status: number, body: unknown): ApiError {
  if (isFieldErrors(body)) {
    const { message, error, error_description: description } = body;
    if (typeof message === 'string' && message.trim() !== '') return new ApiError(status, message);
    if (isFieldErrors(message)) {
      const fieldErrors = normalizeFieldErrors(message);
      const sentence = fieldErrorsSentence(fieldErrors);
      return new ApiError(status, sentence || messageForStatus(status), fieldErrors);
    }
    if (Array.isArray(message) && message.length > 0) return new ApiError(status, message.map(String).join('. '));
    if (typeof error === 'string' && error.trim() !== '') {
      const text = typeof description === 'string' && description ? `${error}: ${description}` : error;
      return new ApiError(status, text);
    }
  }
  if (typeof body === 'string' && body.trim() !== '' && body.length < 300 && !body.trimStart().startsWith('<')) {
    return new ApiError(status, body.trim());
  }
  return new ApiError(status, messageForStatus(status));
}

/** What to show a person for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message) return `Network error: ${error.message}`;
  return 'Something went wrong. Try again.';
}
