/**
 * GitLab's typed global id scalars: an argument that is not a global id of the right class
 * is refused before any resolver runs, with GitLab's coercion message (see global-id.ts).
 * Values reach resolvers parsed ({ type, id }); ids go out as strings.
 */
import { GraphQLScalarType, Kind } from 'graphql';
import { AWARDABLE_ID, coerceGlobalId, DISCUSSION_ID, NOTE_ID, NOTEABLE_ID, USER_ID, type GlobalIdScalar } from '../global-id.js';

export function globalIdScalar(name: string, scalar: GlobalIdScalar): GraphQLScalarType {
  // A GlobalIdError, which GraphQL wraps as the error's originalError (see variableErrorMessage).
  const parse = (value: unknown) => coerceGlobalId(value, scalar);
  return new GraphQLScalarType({
    name,
    serialize: (value) => value,
    parseValue: parse,
    parseLiteral: (ast) => parse(ast.kind === Kind.STRING ? ast.value : ast.kind === Kind.INT ? Number(ast.value) : undefined),
  });
}

export const editorScalars = {
  NoteID: globalIdScalar('NoteID', NOTE_ID),
  DiscussionID: globalIdScalar('DiscussionID', DISCUSSION_ID),
  NoteableID: globalIdScalar('NoteableID', NOTEABLE_ID),
  AwardableID: globalIdScalar('AwardableID', AWARDABLE_ID),
  AwardEmojiID: globalIdScalar('AwardEmojiID', { model: 'AwardEmoji', classes: ['AwardEmoji'] }),
  UserID: globalIdScalar('UserID', USER_ID),
};
