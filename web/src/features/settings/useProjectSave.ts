import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Project } from '../../lib/gitlab-types';
import { projectKeys } from '../projects';
import { updateProjectMutation } from './api';

/** GitLab's notice after a settings form saves. */
export const projectUpdatedNotice = (name: string) => `Project '${name}' was successfully updated.`;

/**
 * One section's PUT /projects/:id: the saved project replaces the cached one (the page and its
 * frame show the new values at once), and the section says it saved until its next attempt.
 */
export function useProjectSave(project: Project) {
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState<string | null>(null);
  const mutation = useMutation({
    ...updateProjectMutation(project.id),
    onMutate: () => setSaved(null),
    onSuccess: (updated) => {
      queryClient.setQueryData(projectKeys.detail(project.path_with_namespace), updated);
      void queryClient.invalidateQueries({ queryKey: projectKeys.detail(project.path_with_namespace) });
      setSaved(projectUpdatedNotice(updated.name));
    },
  });
  return { save: (body: Record<string, unknown>) => mutation.mutate(body), saving: mutation.isPending, error: mutation.error, saved };
}
