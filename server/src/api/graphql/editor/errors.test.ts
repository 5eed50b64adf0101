import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { NoteValidationError } from '../../../domains/notes/note-rules.js';
import { ConflictError, ForbiddenError, InsufficientScopeError, NotFoundError, UnauthorizedError, UnprocessableError, ValidationError } from '../../../platform/errors.js';
import { GlobalIdError } from '../global-id.js';
import { mutation, payloadMessages, RESOURCE_NOT_AVAILABLE, withGlobalIdMessage } from './errors.js';

describe('payloadMessages', () => {
  it.each<[string, unknown, string[] | null]>([
    ['the unseen is a top-level error', new NotFoundError('Note'), null],
    ['the forbidden is a top-level error', new ForbiddenError(), null],
    ['the signed-out is a top-level error', new UnauthorizedError(), null],
    ['a read-only token is a top-level error', new InsufficientScopeError(['api']), null],
    ['a refused award keeps its reason', new NotFoundError('Award Emoji Name is not a valid emoji name'), ['Name is not a valid emoji name']],
    ['an invalid note lists its full messages', new NoteValidationError('400 Bad request - Note {:note=>["can\'t be blank"]}', ["Note can't be blank"]), ["Note can't be blank"]],
    ['REST prefixes are dropped', new ValidationError('400 (Bad request) "position[head_sha]" is invalid'), ['"position[head_sha]" is invalid']],
    ['field errors become sentences', ValidationError.field('assignee_ids', 'is invalid'), ['Assignee ids is invalid']],
    ['a plain domain message stays', new UnprocessableError('Branch cannot be merged'), ['Branch cannot be merged']],
    ['a conflict stays', new ConflictError('This comment changed'), ['This comment changed']],
    ['an unexpected failure is not a refusal', new Error('boom'), null],
  ])('%s', (_name, error, expected) => {
    expect(payloadMessages(error)).toEqual(expected);
  });
});

describe('mutation', () => {
  it('adds empty errors to a payload', async () => {
    expect(await mutation(async () => ({ note: 1 }))).toEqual({ note: 1, errors: [] });
  });
  it('answers a domain refusal in errors', async () => {
    expect(await mutation(async () => Promise.reject(new UnprocessableError('No')))).toEqual({ errors: ['No'] });
  });
  it('turns the unseen into GitLab\'s top-level error', async () => {
    await expect(mutation(async () => Promise.reject(new NotFoundError('Note')))).rejects.toThrow(new GraphQLError(RESOURCE_NOT_AVAILABLE));
  });
  it('lets unexpected failures through', async () => {
    await expect(mutation(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});

describe('withGlobalIdMessage', () => {
  const cause = new GlobalIdError('"12" is not a valid Global ID');
  it('puts the scalar\'s explanation back into a compiled query\'s message', () => {
    const jit = new GraphQLError('Variable "$noteId" got invalid value "12"; Expected type NoteID.', { originalError: cause });
    expect(withGlobalIdMessage(jit).message).toBe('Variable "$noteId" got invalid value "12"; "12" is not a valid Global ID');
  });
  it('leaves a message that has it, and other errors, alone', () => {
    const plain = new GraphQLError('Variable "$noteId" got invalid value "12"; Expected type "NoteID". "12" is not a valid Global ID', { originalError: cause });
    expect(withGlobalIdMessage(plain)).toBe(plain);
    const other = new GraphQLError('Cannot query field "x"');
    expect(withGlobalIdMessage(other)).toBe(other);
  });
});
