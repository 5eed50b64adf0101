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
  // GitLab creates the branch in the user's fork here; Tributary does not yet, so it says so.
  noPush: "You can't push to this project, so the changes can't be applied here. Creating them in a fork is not supported yet.",
  branchRequired: 'Choose a target branch.',
} as const;
