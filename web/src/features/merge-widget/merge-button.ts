import { t } from '@tributary/contracts/i18n';
import { MSG } from './messages';
import type { WidgetStateName } from './widget-state';

/**
 * The rules of the ready-to-merge panel, as pure functions.
 * The pipeline and auto-merge inputs are part of GitLab's rules, so they are taken here; until
 * the merge request shows its pipeline, the widget passes "no CI, no auto-merge".
 */

export type ReadyStatus = 'failed' | 'pending' | 'success';

export interface ReadyStatusInput {
  hasCi: boolean;
  /** The head pipeline's status, upper case (GraphQL), or null without a pipeline. */
  pipelineStatus: string | null;
  onlyAllowMergeIfPipelineSucceeds: boolean;
  autoMergeAvailable: boolean;
}

const FAILED_PIPELINE_STATUSES = new Set(['FAILED', 'CANCELED']);

/**
 * Failed-like when the CI pipeline is missing, when "pipeline must succeed" conflicts
 * with no CI, or when the pipeline failed or was canceled; pending when auto-merge is
 * available; otherwise success.
 */
export function readyStatus(input: ReadyStatusInput): ReadyStatus {
  if ((input.hasCi && !input.pipelineStatus) || (!input.hasCi && input.onlyAllowMergeIfPipelineSucceeds)) return 'failed';
  if (input.autoMergeAvailable) return 'pending';
  if (input.pipelineStatus !== null && FAILED_PIPELINE_STATUSES.has(input.pipelineStatus)) return 'failed';
  return 'success';
}

/** Merge controls show only when the user can merge, auto-merge is not enabled and the state is readyToMerge. */
export function shouldShowMergeControls(input: { canMerge: boolean; autoMergeEnabled: boolean; state: WidgetStateName | null }): boolean {
  return input.canMerge && !input.autoMergeEnabled && input.state === 'readyToMerge';
}

/** 'Merge in progress' while merging immediately; the auto-merge text when available; 'Merge…' when failed-like; else 'Merge'. */
export function mergeButtonText(input: { mergingImmediately: boolean; autoMergeText: string | null; status: ReadyStatus; pipelineFailed: boolean }): string {
  if (input.mergingImmediately) return t(MSG.mergeInProgress);
  if (input.autoMergeText !== null) return input.autoMergeText;
  if (input.status === 'failed' || input.pipelineFailed) return t(MSG.mergeEllipsis);
  return t(MSG.merge);
}

/**
 * Disabled when the commit message is empty, merge controls are not shown, a request is
 * in progress, or preventMerge is set. "The commit message" is each message the merge would
 * use from an editor that is shown: the merge commit message unless the project only
 * fast-forwards, and the squash message when squashing.
 */
export function isMergeButtonDisabled(input: {
  mergeMessage: string;
  squashMessage: string;
  showMergeEditor: boolean;
  showSquashEditor: boolean;
  showMergeControls: boolean;
  requestInProgress: boolean;
  preventMerge: boolean;
}): boolean {
  const emptyMessage = (input.showMergeEditor && input.mergeMessage.trim() === '') || (input.showSquashEditor && input.squashMessage.trim() === '');
  return emptyMessage || !input.showMergeControls || input.requestInProgress || input.preventMerge;
}

export type SquashOption = 'never' | 'always' | 'default_on' | 'default_off';

export interface SquashSettings {
  /** The checkbox shows at all (the project allows squashing, or requires it). */
  available: boolean;
  /** The checkbox is read-only: the project requires (or forbids) squashing. */
  readOnly: boolean;
  /** The initial value of the checkbox. */
  initial: boolean;
}

/**
 * GitLab's squash_before_merge rules: read-only with the project's value when the setting
 * forces it ('always' checked, 'never' hidden); otherwise the merge request's own choice.
 */
export function squashSettings(input: { squashReadOnly: boolean; squashOnMerge: boolean; squash: boolean; squashOption: SquashOption }): SquashSettings {
  const readOnly = input.squashReadOnly || input.squashOption === 'always' || input.squashOption === 'never';
  const selected = readOnly ? input.squashOnMerge || input.squashOption === 'always' : input.squash;
  const available = !(readOnly && !selected) && input.squashOption !== 'never';
  return { available, readOnly, initial: available && selected };
}

/** Rebase is possible when the source is behind the target and the user can push to it. */
export function canRebase(input: { divergedCommitsCount: number; pushToSourceBranch: boolean }): boolean {
  return input.divergedCommitsCount > 0 && input.pushToSourceBranch;
}

/** Commit message textareas have 7 rows and grow to at most 32. */
export const COMMIT_MESSAGE_ROWS = { min: 7, max: 32 } as const;

export function commitMessageRows(text: string): number {
  const lines = text.split('\n').length;
  return Math.min(COMMIT_MESSAGE_ROWS.max, Math.max(COMMIT_MESSAGE_ROWS.min, lines));
}

/** A message the user edited is touched; server defaults replace only untouched ones. */
export interface EditableMessage {
  value: string;
  touched: boolean;
}

export function withServerDefault(message: EditableMessage, serverDefault: string | null): EditableMessage {
  return message.touched ? message : { value: serverDefault ?? '', touched: false };
}

export interface MergeRequestPayload {
  sha: string;
  should_remove_source_branch: boolean;
  squash: boolean;
  squash_commit_message?: string;
  merge_commit_message?: string;
  /** only when setting auto-merge: the strategy (GitLab's widget sends the preferred one) */
  auto_merge_strategy?: string;
  /** merge now without restarting the merge train ('Merge now and don't restart train'); false otherwise, as GitLab's widget sends it */
  skip_merge_train: boolean;
}

/**
 * The merge button's auto-merge words for the preferred strategy (GitLab's ready_to_merge
 * mixin): the button text and the helper text beside it; null when none is available.
 */
export function autoMergeTexts(preferred: string | null): { button: string; helper: string } | null {
  if (preferred === null) return null;
  if (preferred === 'merge_train') return { button: MSG.merge, helper: MSG.addToMergeTrain };
  if (preferred === 'add_to_merge_train_when_checks_pass') return { button: MSG.setToAutoMerge, helper: MSG.addToMergeTrainWhenChecksPass };
  return { button: MSG.setToAutoMerge, helper: MSG.mergeWhenChecksPass };
}

/**
 * The body of PUT …/merge: the squash commit message only when squash is available
 * and it was edited, the merge commit message only when edited (and the project does not
 * only fast-forward: then it is never used).
 */
export function mergePayload(input: {
  sha: string;
  removeSourceBranch: boolean;
  squash: boolean;
  squashAvailable: boolean;
  squashMessage: EditableMessage;
  mergeMessage: EditableMessage;
  ffOnly: boolean;
  skipMergeTrain?: boolean;
}): MergeRequestPayload {
  const payload: MergeRequestPayload = { sha: input.sha, should_remove_source_branch: input.removeSourceBranch, squash: input.squash, skip_merge_train: input.skipMergeTrain ?? false };
  if (input.squashAvailable && input.squashMessage.touched) payload.squash_commit_message = input.squashMessage.value;
  if (input.mergeMessage.touched && !input.ffOnly) payload.merge_commit_message = input.mergeMessage.value;
  return payload;
}
