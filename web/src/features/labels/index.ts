// features/labels: what other areas and the app may use. Everything else in this folder is its own.
// Pages load lazily, each its own chunk: the router and routes import their loaders from here.
export { projectLabelsQuery } from './api';
export { LabelFilterSelect, LabelsSelect } from './LabelsSelect';
export { LabelList } from './LabelToken';
export { MergeRequestLabelsAndMilestone } from './MergeRequestLabelsAndMilestone';
export { MilestoneFilterSelect, MilestoneSelect } from './MilestoneSelect';

export const loadProjectLabelsPage = () => import('./ProjectLabelsPage');
export const loadProjectMilestonesPage = () => import('./ProjectMilestonesPage');
export const loadGroupLabelsPage = () => import('./GroupLabelsPage');
export const loadGroupMilestonesPage = () => import('./GroupMilestonesPage');
