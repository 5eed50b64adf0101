/**
 * How GitLab's GraphQL mutations fail. What the caller may not see or do (absent, hidden,
 * forbidden, signed out, a token without the `api` scope) is one top-level error with
 * GitLab's ResourceNotAvailable message, never a hint that the record exists. What the
 * domain refuses for the input itself (a blank note, an unmergeable request) comes back in
 * the payload's `errors` with the rest of the payload null.
 */
import { GraphQLError } from 'graphql';
import { GlobalIdError } from '../global-id.js';
import { DomainError, ForbiddenError, InsufficientScopeError, NotFoundError, UnauthorizedError } from '../../../platform/errors.js';

export const RESOURCE_NOT_AVAILABLE = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

export const resourceNotAvailable = () => new GraphQLError(RESOURCE_NOT_AVAILABLE);

/** The award emoji service answers refused awards as REST's 404 "Award Emoji <reason> Not Found". */
const AWARD_REFUSAL = /^404 Award Emoji (.+) Not Found$/;
/** REST's status prefixes, which GraphQL's messages do not carry. */
const STATUS_PREFIX = /^\d{3} (?:\(Bad request\) |Bad request - |[A-Z][A-Za-z ]*? - )?/;

/** The payload messages of a refusal, or null when it is a top-level error. */
export function payloadMessages(error: unknown): string[] | null {
  if (error instanceof NotFoundError) {
    const award = AWARD_REFUSAL.exec(error.message);
    return award ? [award[1]!] : null;
  }
  if (error instanceof ForbiddenError || error instanceof UnauthorizedError || error instanceof InsufficientScopeError) return null;
  const full = (error as { fullMessages?: unknown }).fullMessages;
  if (Array.isArray(full) && full.every((message) => typeof message === 'string')) return full as string[];
  if (error instanceof DomainError) {
    const body = error.body;
    if (typeof body === 'string') return [body.replace(STATUS_PREFIX, '')];
    if (Array.isArray(body)) return body;
    return Object.entries(body).flatMap(([field, messages]) => messages.map((message) => `${field.charAt(0).toUpperCase()}${field.slice(1).replace(/_/g, ' ')} ${message}`));
  }
  return null;
}

/**
 * Runs a mutation: its payload with `errors: []`, the refusal's messages in `errors` (the
 * payload's other fields null), or a top-level error. Unexpected failures propagate.
 */
export async function mutation<T extends object>(run: () => Promise<T>): Promise<(T & { errors: string[] }) | { errors: string[] }> {
  try {
    return { ...(await run()), errors: [] };
  } catch (error) {
    if (error instanceof GraphQLError) throw error;
    const messages = payloadMessages(error);
    if (messages) return { errors: messages };
    if (error instanceof DomainError || error instanceof InsufficientScopeError) throw resourceNotAvailable();
    throw error;
  }
}

/**
 * A variable refused by an id scalar keeps GitLab's explanation (`"12" is not a valid Global
 * ID`) in its message: graphql-js appends it, but a query compiled by graphql-jit says only
 * "Expected type NoteID.", so the message is rebuilt from the scalar's own error either way.
 */
export function withGlobalIdMessage(error: GraphQLError): GraphQLError {
  let cause: unknown = error.originalError;
  while (cause && !(cause instanceof GlobalIdError)) cause = (cause as { originalError?: unknown }).originalError;
  if (!(cause instanceof GlobalIdError) || error.message.includes(cause.message)) return error;
  const subject = error.message.split('; ')[0];
  return new GraphQLError(`${subject}; ${cause.message}`, { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, originalError: cause });
}
