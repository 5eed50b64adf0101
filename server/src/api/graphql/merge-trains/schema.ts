/**
 * GitLab's merge train types (Types::MergeTrains::TrainType, CarType): a project's trains per
 * target branch with their cars, and a merge request's car and position, which the merge
 * widget's MergeTrainPosition, MergeTrainCarIndex and MergeTrainCarCount fragments read.
 */
export const mergeTrainsSchema = /* GraphQL */ `
  "Cars on the train (ACTIVE) or merged from it (COMPLETED)."
  enum MergeTrainStatus {
    ACTIVE
    COMPLETED
  }

  enum CarStatus {
    IDLE
    STALE
    FRESH
    MERGING
    MERGED
    SKIP_MERGED
  }

  "A merge request on a merge train."
  type MergeTrainCar {
    "gid://gitlab/MergeTrains::Car/<id>"
    id: ID!
    "Cars ahead of it on its train (0: the front car); null once it left the train."
    index: Int
    status: CarStatus!
    targetBranch: String!
    mergeRequest: MergeRequest
    pipeline: Pipeline
    user: UserCore
    createdAt: Time!
    updatedAt: Time!
    mergedAt: Time
    duration: Int
  }

  type MergeTrainCarConnection {
    count: Int!
    nodes: [MergeTrainCar!]!
    pageInfo: PageInfo!
  }

  "The cars queued for one target branch."
  type MergeTrain {
    targetBranch: String!
    cars(activityStatus: MergeTrainStatus, first: Int, after: String): MergeTrainCarConnection!
  }

  type MergeTrainConnection {
    count: Int!
    nodes: [MergeTrain!]!
  }

  extend type Project {
    "The project's merge trains, one per target branch; null when the caller may not read them (below Developer, or no merge trains)."
    mergeTrains(targetBranches: [String!], status: MergeTrainStatus = ACTIVE): MergeTrainConnection
  }

  extend type MergeRequest {
    "The merge request's car while it is on a merge train."
    mergeTrainCar: MergeTrainCar
    "Deprecated in GitLab for mergeTrainCar.index."
    mergeTrainIndex: Int
    "Cars on the merge train of the merge request's target branch."
    mergeTrainsCount: Int
  }

  extend type ProjectCiCdSetting {
    mergeTrainsSkipTrainAllowed: Boolean
  }
`;
