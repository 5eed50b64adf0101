export { ApprovalsSection } from './ApprovalsSection';
