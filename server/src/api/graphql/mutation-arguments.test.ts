import { buildSchema, type GraphQLInputObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from './schema.js';

/**
 * Every mutation's input, argument by argument, as GitLab's mutation classes declare it
 * (app/graphql/mutations/…: the argument, its type and whether it is required; the
 * `clientMutationId` every GitLab mutation takes), so GitLab clients' documents validate here.
 */
const GITLAB_INPUTS: Record<string, Record<string, string>> = {
  createNote: { clientMutationId: 'String', noteableId: 'NoteableID!', body: 'String!', internal: 'Boolean', discussionId: 'DiscussionID', mergeRequestDiffHeadSha: 'String' },
  createDiffNote: { clientMutationId: 'String', noteableId: 'NoteableID!', body: 'String!', internal: 'Boolean', position: 'DiffPositionInput!' },
  updateNote: { clientMutationId: 'String', id: 'NoteID!', body: 'String' },
  destroyNote: { clientMutationId: 'String', id: 'NoteID!' },
  discussionToggleResolve: { clientMutationId: 'String', id: 'DiscussionID!', resolve: 'Boolean!' },
  awardEmojiToggle: { clientMutationId: 'String', awardableId: 'AwardableID!', name: 'String!' },
  mergeRequestSetDraft: { clientMutationId: 'String', projectPath: 'ID!', iid: 'String!', draft: 'Boolean!' },
  mergeRequestAccept: {
    clientMutationId: 'String',
    projectPath: 'ID!',
    iid: 'String!',
    sha: 'String!',
    commitMessage: 'String',
    squashCommitMessage: 'String',
    squash: 'Boolean',
    shouldRemoveSourceBranch: 'Boolean',
    strategy: 'MergeStrategyEnum',
  },
  mergeRequestSetAssignees: { clientMutationId: 'String', projectPath: 'ID!', iid: 'String!', assigneeUsernames: '[String!]!', operationMode: 'MutationOperationMode' },
  mergeRequestSetReviewers: { clientMutationId: 'String', projectPath: 'ID!', iid: 'String!', reviewerUsernames: '[String!]!', operationMode: 'MutationOperationMode' },
  mergeRequestSetLabels: { clientMutationId: 'String', projectPath: 'ID!', iid: 'String!', labelIds: '[LabelID!]!', operationMode: 'MutationOperationMode' },
  mergeRequestSetMilestone: { clientMutationId: 'String', projectPath: 'ID!', iid: 'String!', milestoneId: 'MilestoneID' },
  mergeRequestApprove: { clientMutationId: 'String', projectPath: 'ID!', iid: 'String!', sha: 'String' },
  mergeRequestUnapprove: { clientMutationId: 'String', projectPath: 'ID!', iid: 'String!' },
};

describe('mutation inputs are GitLab’s', () => {
  const built = buildSchema(schema);
  const mutations = built.getMutationType()!.getFields();

  it.each(Object.entries(GITLAB_INPUTS))('%s', (name, expected) => {
    const field = mutations[name];
    expect(field, `${name} exists`).toBeDefined();
    expect(field!.args.map((arg) => `${arg.name}: ${String(arg.type)}`)).toEqual([`input: ${name.charAt(0).toUpperCase()}${name.slice(1)}Input!`]);
    const input = field!.args[0]!.type.toString().replace(/!$/, '');
    const fields = (built.getType(input) as GraphQLInputObjectType).getFields();
    expect(Object.fromEntries(Object.values(fields).map((arg) => [arg.name, String(arg.type)]))).toEqual(expected);
  });

  it('the diff position input is GitLab’s DiffPositionInput', () => {
    const fields = (built.getType('DiffPositionInput') as GraphQLInputObjectType).getFields();
    expect(Object.fromEntries(Object.values(fields).map((arg) => [arg.name, String(arg.type)]))).toEqual({
      baseSha: 'String',
      headSha: 'String!',
      startSha: 'String!',
      paths: 'DiffPathsInput!',
      newLine: 'Int',
      oldLine: 'Int',
    });
  });

  it('the operation mode and the default of squash are GitLab’s', () => {
    expect(built.getType('MutationOperationMode')?.toString()).toBe('MutationOperationMode');
    const accept = (built.getType('MergeRequestAcceptInput') as GraphQLInputObjectType).getFields();
    expect(accept.squash!.defaultValue).toBe(false);
  });
});
