/**
 * The part of GitLab's GraphQL schema that GitLab's editor extensions use to review a merge
 * request: its threads and notes, one note by id, and the mutations that comment, edit,
 * delete, resolve, react, mark as draft, merge, assign and request review. GitLab's type,
 * field, argument and input names; payloads carry `errors: [String!]!` for what the domain
 * refused, and what the caller may not see or do is a top-level error.
 */
export const editorSchema = /* GraphQL */ `
  "A global id of a note: gid://gitlab/Note/<id> (also DiscussionNote, DiffNote)"
  scalar NoteID
  "A global id of a discussion: gid://gitlab/Discussion/<sha> (also IndividualNoteDiscussion, DiffDiscussion)"
  scalar DiscussionID
  "A global id of what a note hangs on: gid://gitlab/MergeRequest/<id>"
  scalar NoteableID
  "A global id of what an emoji is awarded to: a merge request or a note"
  scalar AwardableID
  "A global id of an award emoji"
  scalar AwardEmojiID
  "A global id of a user"
  scalar UserID

  extend type Query {
    "A note by global id; null when it does not exist or the caller may not see it."
    note(id: NoteID!): Note
  }

  type Mutation {
    createNote(input: CreateNoteInput!): CreateNotePayload
    createDiffNote(input: CreateDiffNoteInput!): CreateDiffNotePayload
    updateNote(input: UpdateNoteInput!): UpdateNotePayload
    destroyNote(input: DestroyNoteInput!): DestroyNotePayload
    discussionToggleResolve(input: DiscussionToggleResolveInput!): DiscussionToggleResolvePayload
    awardEmojiToggle(input: AwardEmojiToggleInput!): AwardEmojiTogglePayload
    mergeRequestSetDraft(input: MergeRequestSetDraftInput!): MergeRequestSetDraftPayload
    mergeRequestAccept(input: MergeRequestAcceptInput!): MergeRequestAcceptPayload
    mergeRequestSetAssignees(input: MergeRequestSetAssigneesInput!): MergeRequestSetAssigneesPayload
    mergeRequestSetReviewers(input: MergeRequestSetReviewersInput!): MergeRequestSetReviewersPayload
  }

  type PageInfo {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }

  extend type MergeRequest {
    "Threads and comments, oldest first; internal ones only for Reporters and above."
    discussions(after: String, first: Int): DiscussionConnection!
    assignees: MergeRequestAssigneeConnection
    reviewers: MergeRequestReviewerConnection
  }

  extend type MergeRequestPermissions {
    createNote: Boolean!
  }

  type MergeRequestAssigneeConnection {
    count: Int!
    nodes: [MergeRequestAssignee]
  }

  type MergeRequestAssignee {
    id: ID!
    username: String!
    name: String!
    state: UserState!
    webUrl: String!
    webPath: String!
    avatarUrl: String
  }

  type MergeRequestReviewerConnection {
    count: Int!
    nodes: [MergeRequestReviewer]
  }

  type MergeRequestReviewer {
    id: ID!
    username: String!
    name: String!
    state: UserState!
    webUrl: String!
    webPath: String!
    avatarUrl: String
  }

  type DiscussionConnection {
    nodes: [Discussion]
    pageInfo: PageInfo!
  }

  type Discussion {
    id: DiscussionID!
    "The id to reply with (createNote's discussionId)."
    replyId: DiscussionID!
    createdAt: Time!
    updatedAt: Time!
    resolvable: Boolean!
    resolved: Boolean!
    resolvedAt: Time
    resolvedBy: UserCore
    notes: NoteConnection!
  }

  type NoteConnection {
    nodes: [Note]
    pageInfo: PageInfo!
  }

  type Note {
    id: NoteID!
    body: String!
    "The body rendered as sanitized HTML."
    bodyHtml: String
    author: UserCore
    createdAt: Time!
    updatedAt: Time!
    lastEditedAt: Time
    lastEditedBy: UserCore
    system: Boolean!
    internal: Boolean
    confidential: Boolean
    resolvable: Boolean!
    resolved: Boolean!
    resolvedAt: Time
    resolvedBy: UserCore
    url: String
    discussion: Discussion
    position: DiffPosition
    userPermissions: NotePermissions!
  }

  type NotePermissions {
    adminNote: Boolean!
    awardEmoji: Boolean!
    createNote: Boolean!
    readNote: Boolean!
    repositionNote: Boolean!
    resolveNote: Boolean!
  }

  enum DiffPositionType {
    text
    image
    file
  }

  type DiffPosition {
    diffRefs: DiffRefs!
    filePath: String!
    oldPath: String
    newPath: String
    oldLine: Int
    newLine: Int
    positionType: DiffPositionType!
    width: Int
    height: Int
    x: Int
    y: Int
  }

  type AwardEmoji {
    name: String!
    description: String
    emoji: String
    unicode: String
    user: UserCore
  }

  input DiffPathsInput {
    newPath: String
    oldPath: String
  }

  input DiffPositionInput {
    baseSha: String
    headSha: String!
    startSha: String!
    paths: DiffPathsInput!
    newLine: Int
    oldLine: Int
  }

  input CreateNoteInput {
    clientMutationId: String
    noteableId: NoteableID!
    body: String!
    discussionId: DiscussionID
    internal: Boolean
    mergeRequestDiffHeadSha: String
  }

  type CreateNotePayload {
    clientMutationId: String
    errors: [String!]!
    note: Note
  }

  input CreateDiffNoteInput {
    clientMutationId: String
    noteableId: NoteableID!
    body: String!
    position: DiffPositionInput!
    internal: Boolean
  }

  type CreateDiffNotePayload {
    clientMutationId: String
    errors: [String!]!
    note: Note
  }

  input UpdateNoteInput {
    clientMutationId: String
    id: NoteID!
    body: String
  }

  type UpdateNotePayload {
    clientMutationId: String
    errors: [String!]!
    note: Note
  }

  input DestroyNoteInput {
    clientMutationId: String
    id: NoteID!
  }

  type DestroyNotePayload {
    clientMutationId: String
    errors: [String!]!
    note: Note
  }

  input DiscussionToggleResolveInput {
    clientMutationId: String
    id: DiscussionID!
    resolve: Boolean!
  }

  type DiscussionToggleResolvePayload {
    clientMutationId: String
    errors: [String!]!
    discussion: Discussion
  }

  input AwardEmojiToggleInput {
    clientMutationId: String
    awardableId: AwardableID!
    name: String!
  }

  type AwardEmojiTogglePayload {
    clientMutationId: String
    errors: [String!]!
    awardEmoji: AwardEmoji
    toggledOn: Boolean!
  }

  input MergeRequestSetDraftInput {
    clientMutationId: String
    projectPath: ID!
    iid: String!
    draft: Boolean!
  }

  type MergeRequestSetDraftPayload {
    clientMutationId: String
    errors: [String!]!
    mergeRequest: MergeRequest
  }

  enum MergeStrategyEnum {
    MERGE_WHEN_CHECKS_PASS
    MERGE_WHEN_PIPELINE_SUCCEEDS
    MERGE_TRAIN
    ADD_TO_MERGE_TRAIN_WHEN_CHECKS_PASS
    ADD_TO_MERGE_TRAIN_WHEN_PIPELINE_SUCCEEDS
  }

  input MergeRequestAcceptInput {
    clientMutationId: String
    projectPath: ID!
    iid: String!
    sha: String!
    commitMessage: String
    squashCommitMessage: String
    squash: Boolean = false
    shouldRemoveSourceBranch: Boolean
    strategy: MergeStrategyEnum
  }

  type MergeRequestAcceptPayload {
    clientMutationId: String
    errors: [String!]!
    mergeRequest: MergeRequest
  }

  enum MutationOperationMode {
    REPLACE
    APPEND
    REMOVE
  }

  input MergeRequestSetAssigneesInput {
    clientMutationId: String
    projectPath: ID!
    iid: String!
    assigneeUsernames: [String!]!
    operationMode: MutationOperationMode = REPLACE
  }

  type MergeRequestSetAssigneesPayload {
    clientMutationId: String
    errors: [String!]!
    mergeRequest: MergeRequest
  }

  input MergeRequestSetReviewersInput {
    clientMutationId: String
    projectPath: ID!
    iid: String!
    reviewerUsernames: [String!]!
    operationMode: MutationOperationMode = REPLACE
  }

  type MergeRequestSetReviewersPayload {
    clientMutationId: String
    errors: [String!]!
    mergeRequest: MergeRequest
  }
`;
