/** The queue jobs the pipeline engine enqueues in the transaction of the transition that causes them. */
export const ENQUEUE_SCHEDULED_JOB = 'pipelines.enqueue_scheduled';
/** A trigger job became pending: its downstream pipeline is created (GitLab's CreateDownstreamPipelineService). */
export const CREATE_DOWNSTREAM_JOB = 'pipelines.create_downstream';
/** A triggered pipeline changed status: its bridge with `strategy` follows (GitLab's PipelineBridgeStatusService). */
export const UPDATE_BRIDGE_STATUS_JOB = 'pipelines.update_bridge_status';
/** A canceled pipeline's child pipelines are canceled too (GitLab's cascade_to_children), each in its own transaction. */
export const CANCEL_PIPELINE_JOB = 'pipelines.cancel_pipeline';
/** A resource group's resource was given back, or a job waits for it: the next waiting job takes it. */
export const ASSIGN_RESOURCE_JOB = 'pipelines.assign_resource';
