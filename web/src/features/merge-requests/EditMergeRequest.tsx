import { Heading, Stack } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { MergeRequest, Project } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { mergeRequestKeys, updateMergeRequestMutation } from './api';
import { MergeRequestForm, type MergeRequestFormValues } from './MergeRequestForm';

/** `/-/merge_requests/<iid>/edit`: title, draft, description, people, target branch and options (PUT). */
export function EditMergeRequest({ project, mr }: { project: Project; mr: MergeRequest }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<MergeRequestFormValues>({
    title: mr.title,
    description: mr.description ?? '',
    assignees: mr.assignees,
    reviewers: mr.reviewers,
    targetBranch: mr.target_branch,
    removeSourceBranch: mr.force_remove_source_branch ?? false,
    squash: mr.squash,
    allowCollaboration: mr.allow_collaboration ?? false,
  });
  const update = useMutation({
    ...updateMergeRequestMutation(project.id, mr.iid),
    onSuccess: (updated) => {
      queryClient.setQueryData(mergeRequestKeys.detail(project.id, mr.iid), updated);
      void queryClient.invalidateQueries({ queryKey: mergeRequestKeys.all });
      void navigate(urls.mergeRequest(project.path_with_namespace, mr.iid));
    },
  });
  const isFork = mr.source_project_id !== mr.target_project_id;
  return (
    <Stack gap="normal">
      <Heading as="h2" variant="small">
        Edit merge request {mr.references.short}
      </Heading>
      <MergeRequestForm
        targetProjectId={project.id}
        values={values}
        onChange={setValues}
        isFork={isFork}
        submitLabel="Save changes"
        submitting={update.isPending}
        error={update.error}
        errorTitle="The merge request could not be saved."
        cancelTo={urls.mergeRequest(project.path_with_namespace, mr.iid)}
        onSubmit={() =>
          update.mutate({
            title: values.title.trim(),
            description: values.description,
            target_branch: values.targetBranch,
            assignee_ids: values.assignees.map((user) => user.id),
            reviewer_ids: values.reviewers.map((user) => user.id),
            remove_source_branch: values.removeSourceBranch,
            squash: values.squash,
            ...(isFork ? { allow_collaboration: values.allowCollaboration } : {}),
          })
        }
      />
    </Stack>
  );
}
