/**
 * Live pipelines and jobs in GitLab's GraphQL schema: the subscriptions GitLab's pipeline and
 * job pages use (`ciPipelineStatusUpdated`, `ciJobStatusUpdated`, `ciPipelineStatusesUpdated`)
 * with GitLab's argument types, and `ciJobTraceUpdated` (Tributary's: GitLab's job page polls
 * its trace instead). The payload types carry the fields a page needs to know what moved; pages
 * then read the REST API.
 *
 * A job's artifacts and log are GitLab's `CiJob.artifacts` (CiJobArtifact with its downloadPath)
 * and `CiJob.trace` (CiJobTrace.htmlSummary), and `jobUnschedule` turns a delayed job manual.
 */
export const pipelinesSchema = /* GraphQL */ `
  "A global id of a pipeline: gid://gitlab/Ci::Pipeline/<id>"
  scalar CiPipelineID
  "A global id of a job: gid://gitlab/Ci::Build/<id>"
  scalar CiBuildID
  "A global id of a project: gid://gitlab/Project/<id>"
  scalar ProjectID

  "A global id of a job or bridge: gid://gitlab/Ci::Build/<id> or gid://gitlab/Ci::Bridge/<id>"
  scalar CiProcessableID

  enum CiJobStatus {
    CREATED
    WAITING_FOR_RESOURCE
    PREPARING
    PENDING
    RUNNING
    FAILED
    SUCCESS
    CANCELED
    CANCELING
    SKIPPED
    MANUAL
    SCHEDULED
  }

  enum CiJobKind {
    BUILD
    BRIDGE
  }

  enum PipelineScopeEnum {
    RUNNING
    PENDING
    FINISHED
    BRANCHES
    TAGS
  }

  type StatusAction {
    id: String!
    buttonTitle: String
    confirmationMessage: String
    icon: String
    method: String
    path: String
    title: String
  }

  extend type DetailedStatus {
    action: StatusAction
  }

  type PipelinePermissions {
    adminPipeline: Boolean!
    destroyPipeline: Boolean!
    readPipeline: Boolean!
    updatePipeline: Boolean!
  }

  type JobPermissions {
    readBuild: Boolean!
    readJobArtifacts: Boolean!
    updateBuild: Boolean!
    cancelBuild: Boolean!
  }

  extend type Pipeline {
    name: String
    startedAt: Time
    queuedDuration: Float
    complete: Boolean!
    usesNeeds: Boolean
    cancelable: Boolean!
    retryable: Boolean!
    user: UserCore
    project: Project
    failureReason: String
    yamlErrors: Boolean!
    yamlErrorMessages: String
    userPermissions: PipelinePermissions!
    "Jobs that are not replaced by a retry; filtered by status."
    jobs(statuses: [CiJobStatus!], first: Int, after: String): CiJobConnection
    job(id: JobID, name: String): CiJob
    upstream: Pipeline
    downstream: PipelineConnection
    "The bridge of the upstream pipeline that created this one."
    sourceJob: CiJob
    "The variables given when the pipeline was run ('Run pipeline', the API's variables); values are null unless the caller may read them."
    manualVariables: CiManualVariableConnection
  }

  type CiManualVariable {
    id: ID!
    key: String
    value: String
  }

  type CiManualVariableConnection {
    count: Int!
    nodes: [CiManualVariable]
  }

  extend type PipelineConnection {
    pageInfo: PageInfo!
  }

  extend type CiStage {
    groups: CiGroupConnection
    jobs: CiJobConnection
  }

  type CiGroup {
    id: String!
    name: String
    size: Int
    detailedStatus: DetailedStatus
    jobs: CiJobConnection
  }

  type CiGroupConnection {
    nodes: [CiGroup]
  }

  type CiBuildNeed {
    id: ID!
    name: String
  }

  type CiBuildNeedConnection {
    nodes: [CiBuildNeed]
  }

  union JobNeedUnion = CiBuildNeed | CiJob

  type JobNeedUnionConnection {
    nodes: [JobNeedUnion]
  }

  type CiJobConnection {
    count: Int!
    nodes: [CiJob]
    pageInfo: PageInfo!
  }

  type CiJob {
    "GitLab's type is JobID; ID! here so that GitLab's own JobNeedUnion fragments (CiBuildNeed.id is ID!) validate under graphql-js's stricter overlap rule"
    id: ID!
    name: String
    status: CiJobStatus
    kind: CiJobKind!
    detailedStatus: DetailedStatus
    stage: CiStage
    allowFailure: Boolean!
    duration: Int
    queuedDuration: Float
    createdAt: Time!
    startedAt: Time
    finishedAt: Time
    erasedAt: Time
    scheduled: Boolean!
    scheduledAt: Time
    manualJob: Boolean
    retryable: Boolean!
    cancelable: Boolean!
    playable: Boolean!
    retried: Boolean
    active: Boolean!
    needs: CiBuildNeedConnection
    previousStageJobsOrNeeds: JobNeedUnionConnection
    webPath: String
    pipeline: Pipeline
    refName: String
    refPath: String
    shortSha: String!
    tags: [String!]
    coverage: Float
    failureMessage: String
    downstreamPipeline: Pipeline
    userPermissions: JobPermissions!
    "The job's artifacts (none for a trigger job)."
    artifacts(first: Int, after: String): CiJobArtifactConnection
    "The job's log, its masked variables hidden; null when it has none."
    trace: CiJobTrace
    browseArtifactsPath: String
    playPath: String
    retryPath: String
    commitPath: String
    schedulingType: String
    queuedAt: Time
    exitCode: Int
    createdByTag: Boolean!
  }

  "A whole number of any size, as a string (GitLab's BigInt)"
  scalar BigInt

  "A global id of a job artifact: gid://gitlab/Ci::JobArtifact/<id>"
  scalar CiJobArtifactID

  "GitLab's artifact file types (the ones a job of this instance can upload)."
  enum JobArtifactFileType {
    ARCHIVE
    METADATA
    TRACE
    JUNIT
    METRICS
    METRICS_REFEREE
    NETWORK_REFEREE
    DOTENV
    COBERTURA
    CLUSTER_APPLICATIONS
    LSIF
    CYCLONEDX
    SAST
    SECRET_DETECTION
    DEPENDENCY_SCANNING
    CONTAINER_SCANNING
    CLUSTER_IMAGE_SCANNING
    DAST
    LICENSE_SCANNING
    ACCESSIBILITY
    CODEQUALITY
    PERFORMANCE
    BROWSER_PERFORMANCE
    LOAD_PERFORMANCE
    TERRAFORM
    REQUIREMENTS
    REQUIREMENTS_V2
    COVERAGE_FUZZING
    API_FUZZING
    ANNOTATIONS
    REPOSITORY_XRAY
    JACOCO
  }

  type CiJobArtifact {
    id: CiJobArtifactID!
    "The artifact's file name."
    name: String
    fileType: JobArtifactFileType
    "Where the artifact's file is downloaded: /<project>/-/jobs/<id>/artifacts/download?file_type=<type>"
    downloadPath: String
    size: BigInt!
    expireAt: Time
  }

  type CiJobArtifactConnection {
    count: Int!
    nodes: [CiJobArtifact]
    pageInfo: PageInfo!
  }

  type CiJobTrace {
    "The log's last lines (10 by default, at most 100) from at most its last 16 KB, as HTML with GitLab's term-* classes."
    htmlSummary(lastLines: Int = 10): String!
  }

  "A global id of a job: gid://gitlab/CommitStatus/<id> (any Ci::Build or Ci::Bridge id is accepted)"
  scalar JobID

  extend type Project {
    "The project's pipelines, newest first; null when the caller may not read them."
    pipelines(status: PipelineStatusEnum, scope: PipelineScopeEnum, ref: String, sha: String, source: String, first: Int, after: String): PipelineConnection
    "One pipeline by iid, global id or sha (the newest for the sha); null when absent or not visible."
    pipeline(iid: ID, id: CiPipelineID, sha: String): Pipeline
    "One job by global id; null when absent or not visible."
    job(id: JobID!): CiJob
  }

  input CiVariableInput {
    key: String!
    value: String!
  }

  input JobRetryInput {
    clientMutationId: String
    id: CiProcessableID!
    variables: [CiVariableInput!]
  }

  input JobPlayInput {
    clientMutationId: String
    id: CiProcessableID!
    variables: [CiVariableInput!]
  }

  input JobCancelInput {
    clientMutationId: String
    id: CiBuildID!
  }

  input JobUnscheduleInput {
    clientMutationId: String
    id: CiBuildID!
  }

  input PipelineRetryInput {
    clientMutationId: String
    id: CiPipelineID!
  }

  input PipelineCancelInput {
    clientMutationId: String
    id: CiPipelineID!
  }

  input PipelineDestroyInput {
    clientMutationId: String
    id: CiPipelineID!
  }

  type JobRetryPayload {
    clientMutationId: String
    errors: [String!]!
    job: CiJob
  }

  type JobPlayPayload {
    clientMutationId: String
    errors: [String!]!
    job: CiJob
  }

  type JobCancelPayload {
    clientMutationId: String
    errors: [String!]!
    job: CiJob
  }

  type JobUnschedulePayload {
    clientMutationId: String
    errors: [String!]!
    job: CiJob
  }

  type PipelineRetryPayload {
    clientMutationId: String
    errors: [String!]!
    pipeline: Pipeline
  }

  type PipelineCancelPayload {
    clientMutationId: String
    errors: [String!]!
  }

  type PipelineDestroyPayload {
    clientMutationId: String
    errors: [String!]!
  }

  extend type Mutation {
    jobRetry(input: JobRetryInput!): JobRetryPayload
    jobPlay(input: JobPlayInput!): JobPlayPayload
    jobCancel(input: JobCancelInput!): JobCancelPayload
    "Unschedules a delayed job: it becomes a manual job (GitLab's JobUnschedule)."
    jobUnschedule(input: JobUnscheduleInput!): JobUnschedulePayload
    pipelineRetry(input: PipelineRetryInput!): PipelineRetryPayload
    pipelineCancel(input: PipelineCancelInput!): PipelineCancelPayload
    pipelineDestroy(input: PipelineDestroyInput!): PipelineDestroyPayload
  }

  extend type Subscription {
    "Triggered when a pipeline or one of its jobs moves."
    ciPipelineStatusUpdated(pipelineId: CiPipelineID!): Pipeline
    "Triggered when a pipeline of the project is created or moves."
    ciPipelineStatusesUpdated(projectId: ProjectID!): Pipeline
    "Triggered when a job's status is updated."
    ciJobStatusUpdated(jobId: CiBuildID!): CiJob
    "Triggered when the runner appends to a running job's log (Tributary's; read the trace from the offset you hold)."
    ciJobTraceUpdated(jobId: CiBuildID!): CiJob
  }
`;
