/**
 * Labels and milestone of a merge request, changed inside the create or update transaction:
 * GitLab's `labels` (replace), `add_labels`, `remove_labels` and `milestone_id`. Each change is
 * a merge request event in the same transaction, from which the system notes are made
 * ("added ~1 ~2 labels", "changed milestone to %3"). Only callers who may set metadata reach
 * here; others' values are ignored, as GitLab's filter_params does.
 */
import type { Queryable } from '../../platform/db/database.js';
import { exclusiveScopedLabels } from '../labels/label-rules.js';
import type { Label } from '../labels/labels.repository.js';
import type { LabelsService } from '../labels/labels.service.js';
import { milestoneReference } from '../milestones/milestone-rules.js';
import type { MilestonesService } from '../milestones/milestones.service.js';
import type { Project } from '../projects/project.js';
import type { MergeRequestsRepository } from './merge-requests.repository.js';

export interface MetadataInput {
  /** replaces every label (titles) */
  labels?: string[];
  addLabels?: string[];
  removeLabels?: string[];
  /** the same by label id (GitLab's label_ids, add_label_ids, remove_label_ids); ids the project is not offered are ignored */
  labelIds?: number[];
  addLabelIds?: number[];
  removeLabelIds?: number[];
  /** null (or GitLab's 0 / '') removes the milestone */
  milestoneId?: number | null;
}

export type MetadataDeps = {
  labels: Pick<LabelsService, 'resolveTitles' | 'byIds' | 'forMergeRequests' | 'setForMergeRequest'>;
  milestones: Pick<MilestonesService, 'available' | 'byIds'>;
  mergeRequests: Pick<MergeRequestsRepository, 'recordEvent' | 'update'>;
};

const changesLabels = (input: MetadataInput) =>
  input.labels !== undefined || input.addLabels !== undefined || input.removeLabels !== undefined || input.labelIds !== undefined || input.addLabelIds !== undefined || input.removeLabelIds !== undefined;
export const hasMetadata = (input: MetadataInput) => changesLabels(input) || input.milestoneId !== undefined;

/** GitLab's label reference by id (`~12`), as its label system notes write them. */
const byId = (labels: Label[]) => labels.map((label) => `~${label.id}`).join(' ');

/**
 * The labels a merge request ends with: `labels` replaces the current ones, then `add_labels`
 * and `remove_labels` (titles, or ids) apply, then one value per scope. Pure.
 */
export function nextLabels(current: Label[], replaced: Label[] | undefined, added: Label[], removeTitles: string[] | undefined, removeIds: number[] = []): Label[] {
  let next = replaced ?? current;
  next = [...next, ...added.filter((label) => !next.some((kept) => kept.id === label.id))];
  if (removeTitles) next = next.filter((label) => !removeTitles.includes(label.title));
  next = next.filter((label) => !removeIds.includes(label.id));
  const addedIds = next.filter((label) => !current.some((had) => had.id === label.id)).map((label) => label.id);
  return exclusiveScopedLabels(next, addedIds);
}

export async function applyMetadata(
  deps: MetadataDeps,
  target: { project: Project; mergeRequestId: number; milestoneId: number | null; userId: number; mayCreateLabels: boolean },
  input: MetadataInput,
  tx: Queryable,
): Promise<boolean> {
  let changed = false;
  if (changesLabels(input)) {
    const resolve = (titles: string[]) => deps.labels.resolveTitles(target.project, titles, { create: target.mayCreateLabels }, tx);
    // by id: only labels the project is offered, in the order named
    const byIds = async (ids: number[]) => {
      const found = await deps.labels.byIds(target.project, ids, tx);
      return ids.map((id) => found.find((label) => label.id === id)).filter((label): label is Label => label !== undefined);
    };
    const current = (await deps.labels.forMergeRequests([target.mergeRequestId], tx)).get(target.mergeRequestId) ?? [];
    const replaced = input.labels !== undefined ? await resolve(input.labels) : input.labelIds !== undefined ? await byIds(input.labelIds) : undefined;
    const added = [...(input.addLabels ? await resolve(input.addLabels) : []), ...(input.addLabelIds ? await byIds(input.addLabelIds) : [])];
    const next = nextLabels(current, replaced, added, input.removeLabels, input.removeLabelIds);
    const gained = next.filter((label) => !current.some((had) => had.id === label.id));
    const removed = current.filter((had) => !next.some((label) => label.id === had.id));
    if (gained.length > 0 || removed.length > 0) {
      await deps.labels.setForMergeRequest(target.mergeRequestId, next.map((label) => label.id), tx);
      await deps.mergeRequests.recordEvent(target.mergeRequestId, target.userId, 'labels', { from: byId(removed) || null, to: byId(gained) || null }, tx);
      changed = true;
    }
  }
  if (input.milestoneId !== undefined) {
    // GitLab: a milestone the project may not use unsets the milestone.
    const milestone = input.milestoneId === null ? undefined : await deps.milestones.available(target.project, input.milestoneId, tx);
    const nextId = milestone?.id ?? null;
    if (nextId !== target.milestoneId) {
      const previous = target.milestoneId === null ? undefined : (await deps.milestones.byIds([target.milestoneId], tx)).get(target.milestoneId);
      await deps.mergeRequests.update(target.mergeRequestId, { milestone_id: nextId }, tx);
      await deps.mergeRequests.recordEvent(
        target.mergeRequestId,
        target.userId,
        'milestone',
        { from: previous ? milestoneReference(previous) : null, to: milestone ? milestoneReference(milestone) : null },
        tx,
      );
      changed = true;
    }
  }
  return changed;
}
