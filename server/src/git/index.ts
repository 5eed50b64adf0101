/**
 * The git adapter's public surface. Everything the server does with git goes through these
 * functions (or, for new plumbing, through the one builder in command.ts).
 */
export { git, assertDynamicValue, type GitCommand, type GitResult } from './command.js';
export { classifyGitError, type GitErrorCode } from './error-codes.js';
export {
  CommitActionError,
  GitArgumentError,
  GitCommandError,
  GitOutputTooLargeError,
  GitTimeoutError,
  InvalidTreePathError,
  RefConflictError,
} from './errors.js';
export { validateBranchName, validateTagName, userRefNameProblem, refFormatProblem, isValidFullRefName, branchRef, tagRef } from './ref-names.js';
export { treePathProblem, writablePathProblem } from './tree-paths.js';
export { hashedRepositoryPath, repositoryPath, createBareRepository, configureRepository, removeRepository, setDefaultBranch, defaultBranch } from './storage.js';
export { forkRepository } from './fork.js';
export { fetchCommit, hasObject } from './fetch-commit.js';
export { rawDiff, RAW_DIFF_MAX_BYTES } from './raw-diff.js';
export { diffTreesForPaths } from './diff-paths.js';
export { listRefs, listRefNames, readRef, readRefs, mergedRefs, symbolicRefTarget, resolveCommit, resolveCommits, isAncestor, type GitRef, type RefSort } from './refs.js';
export { getCommit, listCommits, countCommits, lastCommitForPath, lastCommitsForPaths, type GitCommit, type ListCommitsOptions, type HistoryFilter, type CommitPage } from './commits.js';
export { readTree, readEntry, readEntries, readBlob, readBlobAt, readBlobsAt, readObjects, type TreeEntry, type TreeEntryType, type BlobAtPath } from './tree.js';
export { diff, diffCommit, diffTrees, EMPTY_TREE_SHA1, type Comparison, type CompareOptions, type DiffLimits, type DiffResult, type FileDiff } from './diff.js';
export { DEFAULT_DIFF_LIMITS, MERGE_REQUEST_DIFF_LIMITS, NO_DIFF_LIMITS, DIFF_MAX_PATCH_BYTES, diffFileKey, collapsesOnRead } from './file-diffs.js';
export { diffTreeStats } from './diff-stats.js';
export { mergeBase, mergeBaseOfCommits } from './merge-base.js';
export { mergeTree, type MergeTreeResult } from './merge-tree.js';
export { treeOf, treesOf } from './tree.js';
export { mergeTreesOnBase, applyCommitToTree, type PickMode, type PickResult } from './three-way.js';
export { createCommit, commitTree, type CreateCommitInput, type CommitTreeInput, type Identity } from './plumbing-write.js';
export type { CommitAction, CommitActionKind } from './commit-actions.js';
export { createRef, deleteRef, updateRef, updateRefs, ZERO_SHA, type RefUpdate } from './ref-updates.js';
export { readRefTips } from './ref-files.js';
export { objectReader, createObjectReader, type ObjectReader, type ObjectReaderOptions } from './object-reader.js';
export { readCommitLinks, parseCommitLinks, type CommitLinks } from './commit-links.js';
