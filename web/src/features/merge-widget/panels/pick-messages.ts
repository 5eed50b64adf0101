/** The merged panel's Revert and Cherry-pick texts, as GitLab's change-commit modal writes them. */
export const PICK_MSG = {
  revert: 'Revert',
  cherryPick: 'Cherry-pick',
  revertTitle: 'Revert this merge request',
  cherryPickTitle: 'Cherry-pick this merge request',
  revertBranchLabel: 'Revert in branch',
  cherryPickBranchLabel: 'Pick into branch',
  startMergeRequest: 'Start a new merge request with these changes',
  cancel: 'Cancel',
  // GitLab makes the change in the user's fork when they cannot push (forking first if needed).
  inFork: "You can't push to this project: the change goes on a new branch in your fork (created if you have none), with a merge request into this project.",
  branchRequired: 'Choose a target branch.',
} as const;
