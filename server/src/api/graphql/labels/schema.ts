/**
 * Labels and milestones in GitLab's GraphQL schema: a merge request's `labels` and
 * `milestone`, a project's `labels(searchTerm:)`, and the `mergeRequestSetLabels` and
 * `mergeRequestSetMilestone` mutations, with GitLab's type, field, argument and input names
 * (Types::LabelType, Types::MilestoneType, Mutations::MergeRequests::SetLabels, SetMilestone).
 */
export const labelsSchema = /* GraphQL */ `
  "A global id of a label: gid://gitlab/ProjectLabel/<id> or gid://gitlab/GroupLabel/<id> (also Label)"
  scalar LabelID
  "A global id of a milestone: gid://gitlab/Milestone/<id>"
  scalar MilestoneID

  type Label {
    id: LabelID!
    title: String!
    color: String!
    textColor: String!
    description: String
    createdAt: Time!
    updatedAt: Time!
  }

  type LabelConnection {
    count: Int!
    nodes: [Label]
    pageInfo: PageInfo!
  }

  enum MilestoneStateEnum {
    active
    closed
  }

  type Milestone {
    id: MilestoneID!
    iid: ID!
    title: String!
    description: String
    state: MilestoneStateEnum!
    "The due date, YYYY-MM-DD."
    dueDate: Time
    "The start date, YYYY-MM-DD."
    startDate: Time
    expired: Boolean!
    webPath: String!
    projectMilestone: Boolean!
    groupMilestone: Boolean!
    createdAt: Time!
    updatedAt: Time!
  }

  extend type MergeRequest {
    labels: LabelConnection
    milestone: Milestone
  }

  extend type Project {
    "The project's labels; with includeAncestorGroups, its groups' as well. searchTerm matches titles."
    labels(searchTerm: String, title: String, includeAncestorGroups: Boolean = false): LabelConnection
  }

  extend type Mutation {
    mergeRequestSetLabels(input: MergeRequestSetLabelsInput!): MergeRequestSetLabelsPayload
    mergeRequestSetMilestone(input: MergeRequestSetMilestoneInput!): MergeRequestSetMilestonePayload
  }

  input MergeRequestSetLabelsInput {
    clientMutationId: String
    projectPath: ID!
    iid: String!
    labelIds: [LabelID!]!
    operationMode: MutationOperationMode
  }

  type MergeRequestSetLabelsPayload {
    clientMutationId: String
    errors: [String!]!
    mergeRequest: MergeRequest
  }

  input MergeRequestSetMilestoneInput {
    clientMutationId: String
    projectPath: ID!
    iid: String!
    milestoneId: MilestoneID
  }

  type MergeRequestSetMilestonePayload {
    clientMutationId: String
    errors: [String!]!
    mergeRequest: MergeRequest
  }
`;
