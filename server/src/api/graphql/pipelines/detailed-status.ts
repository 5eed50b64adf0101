import type { DetailedStatus } from '../../../domains/pipelines/engine/detailed-status.js';

/** GitLab's GraphQL DetailedStatus of a job, stage or pipeline status; `id` as GitLab makes it (`<group>-<id>`). */
export const graphqlDetailedStatus = (status: DetailedStatus, id: string) => ({
  id,
  icon: status.icon,
  text: status.text,
  label: status.label,
  group: status.group,
  tooltip: status.tooltip,
  hasDetails: status.has_details,
  detailsPath: status.details_path,
  favicon: status.favicon,
  action: status.action
    ? { id: `${status.action.title}-${id}`, buttonTitle: status.action.button_title, confirmationMessage: status.action.confirmation_message ?? null, icon: status.action.icon, method: status.action.method, path: status.action.path, title: status.action.title }
    : null,
});
