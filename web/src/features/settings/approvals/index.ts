export { GroupApprovalsSection, ProjectApprovalsSection } from './MergeRequestApprovalsSection';
