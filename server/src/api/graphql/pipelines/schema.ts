/**
 * Live pipelines and jobs in GitLab's GraphQL schema: the subscriptions GitLab's pipeline and
 * job pages use (`ciPipelineStatusUpdated`, `ciJobStatusUpdated`, `ciPipelineStatusesUpdated`)
 * with GitLab's argument types, and `ciJobTraceUpdated` (Tributary's: GitLab's job page polls
 * its trace instead). A pipeline payload is the schema's one `Pipeline` type (schema.ts), without
 * its stages; pages then read the REST API.
 */
export const pipelinesSchema = /* GraphQL */ `
  "A global id of a pipeline: gid://gitlab/Ci::Pipeline/<id>"
  scalar CiPipelineID
  "A global id of a job: gid://gitlab/Ci::Build/<id>"
  scalar CiBuildID
  "A global id of a project: gid://gitlab/Project/<id>"
  scalar ProjectID

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

  type CiJob {
    id: ID
    name: String
    status: CiJobStatus
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
