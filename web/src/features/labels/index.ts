// features/labels: what other areas and the app may use. Everything else in this folder is its own.
// Pages load lazily, each its own chunk: the router and routes import their loaders from here.
export { LabelFilterSelect } from './LabelsSelect';
export { LabelList } from './LabelToken';
export { MergeRequestLabelsAndMilestone } from './MergeRequestLabelsAndMilestone';
export { MilestoneFilterSelect } from './MilestoneSelect';

export const loadProjectLabelsPage = () => import('./ProjectLabelsPage');
export const loadProjectMilestonesPage = () => import('./ProjectMilestonesPage');
