/**
 * Typed domain errors. Services throw these; the one error handler
 * (api/rest/error-handler.ts) maps them to GitLab's status codes and
 * `{"message": …}` bodies, so no route decides an HTTP status by itself.
 */
/** A sentence, a list of sentences (GitLab's `render_api_error!(errors[:base], …)`), or field → errors. */
export type ErrorMessage = string | string[] | Record<string, string[]>;

export abstract class DomainError extends Error {
  abstract readonly status: number;
  constructor(readonly body: ErrorMessage) {
    super(typeof body === 'string' ? body : JSON.stringify(body));
  }
}

/** 400. `body` is either a sentence or GitLab's `{field: [errors]}` object. */
export class ValidationError extends DomainError {
  readonly status = 400;
  static field(field: string, error: string): ValidationError {
    return new ValidationError({ [field]: [error] });
  }
  /** GitLab's wording for a required parameter that was not sent. */
  static missing(field: string): ValidationError {
    return new ValidationError(`400 (Bad request) "${field}" not given`);
  }
}

export class UnauthorizedError extends DomainError {
  readonly status = 401;
  constructor(body: ErrorMessage = '401 Unauthorized') {
    super(body);
  }
}

export class ForbiddenError extends DomainError {
  readonly status = 403;
  constructor(body: ErrorMessage = '403 Forbidden') {
    super(body);
  }
}

/** 404 for what does not exist *and* for what the caller may not see. */
export class NotFoundError extends DomainError {
  readonly status = 404;
  constructor(what = '') {
    super(what ? `404 ${what} Not Found` : '404 Not Found');
  }
}

/** 404 in the wording of GitLab's answer to a failed `find_by!` (ActiveRecord::RecordNotFound): "404 Not found". */
export class RecordNotFoundError extends DomainError {
  readonly status = 404;
  constructor() {
    super('404 Not found');
  }
}

/** `.catch(nullIfNotFound)`: for a lookup whose absence is an answer; any other failure still throws. */
export function nullIfNotFound(error: unknown): null {
  if (error instanceof NotFoundError) return null;
  throw error;
}

export class MethodNotAllowedError extends DomainError {
  readonly status = 405;
  constructor(body: ErrorMessage = '405 Method Not Allowed') {
    super(body);
  }
}

export class ConflictError extends DomainError {
  readonly status = 409;
}

/** 406: GitLab's answer when there is nothing to do that the call asks for ("Can't cancel the automatic merge"). */
export class NotAcceptableError extends DomainError {
  readonly status = 406;
}

/** 410: what existed and is switched off (GitLab's runner registration with a registration token when disallowed). */
export class GoneError extends DomainError {
  readonly status = 410;
}

/** 304 with no body: GitLab's `not_modified!` (approving twice, unapproving without an approval). */
export class NotModifiedError extends DomainError {
  readonly status = 304;
  constructor() {
    super('304 Not Modified');
  }
}

export class PayloadTooLargeError extends DomainError {
  readonly status = 413;
  constructor(body: ErrorMessage = '413 Request Entity Too Large') {
    super(body);
  }
}

export class UnprocessableError extends DomainError {
  readonly status = 422;
}

export class TooManyRequestsError extends DomainError {
  readonly status = 429;
  constructor(body: ErrorMessage = 'This endpoint has been requested too many times. Try again later.') {
    super(body);
  }
}

export class InsufficientScopeError extends Error {
  readonly status = 403;
  constructor(readonly scopes: string[]) {
    super('insufficient_scope');
  }
}
