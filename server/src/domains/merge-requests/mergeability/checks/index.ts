/**
 * The merge checks, in the order that decides `detailed_merge_status` (the first failing one
 * names it). Every check runs and is reported: the widget lists them all.
 *
 * The order is GitLab's with one deliberate change: the git checks (CONFLICT, NEED_REBASE)
 * come right after the cheap state checks and before dependencies, threads and (in later
 * issues) approvals and pipelines, because GitLab's users ask to learn first what only they
 * can fix in git (gitlab-org/gitlab#570458: "not_approved masks need_rebase"). It is the
 * order of MERGEABILITY_CHECK_IDENTIFIERS in @tributary/contracts; later issues append
 * NOT_APPROVED and EXTERNAL_STATUS_CHECKS here.
 *
 * The pipeline checks come last: GitLab's DetailedMergeStatusService asks about CI only once
 * every other check passes. CI_STILL_RUNNING precedes CI_MUST_PASS so that a pipeline that has
 * not finished names the status ci_still_running, and a finished unsuccessful one ci_must_pass.
 */
import { blockedStatusCheck } from './blocked-status.js';
import type { CheckModule } from './check.js';
import { commitsStatusCheck } from './commits-status.js';
import { ciMustPassCheck, ciStillRunningCheck } from './ci-status.js';
import { conflictCheck } from './conflict.js';
import { discussionsNotResolvedCheck } from './discussions-not-resolved.js';
import { draftStatusCheck } from './draft-status.js';
import { needRebaseCheck } from './need-rebase.js';
import { notOpenCheck } from './not-open.js';
import { titleRegexCheck } from './title-regex.js';

export type { CheckModule } from './check.js';

export const MERGE_CHECKS: readonly CheckModule[] = [
  notOpenCheck,
  draftStatusCheck,
  commitsStatusCheck,
  conflictCheck,
  needRebaseCheck,
  titleRegexCheck,
  blockedStatusCheck,
  discussionsNotResolvedCheck,
  ciStillRunningCheck,
  ciMustPassCheck,
];
