import { PlusIcon, TrashIcon } from '@primer/octicons-react';
import { Button, Flash, FormControl, Heading, IconButton, Select, Stack, TextInput } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { LinkButton } from '../../components/AppLink';
import { ApiError, errorMessage } from '../../lib/api-error';
import type { Project } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { BranchSelect } from '../merge-requests';
import { createPipelineMutation, type NewPipelineInput } from './api';

type Variable = NewPipelineInput['variables'][number] & { row: number };

/** GitLab's 400 answers of POST /pipeline: `{"message": {"base": [...]}}`, each shown as is. */
function errorLines(error: unknown): string[] {
  if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) return Object.values(error.fieldErrors).flat();
  return [errorMessage(error)];
}

/** `/<project>/-/pipelines/new`: run a pipeline for a branch, with variables (Developer and above). */
export function NewPipelinePage({ project }: { project: Project }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [ref, setRef] = useState(project.default_branch ?? '');
  const [variables, setVariables] = useState<Variable[]>([{ row: 0, key: '', value: '', variable_type: 'env_var' }]);
  const create = useMutation({
    ...createPipelineMutation(project.id),
    onSuccess: (pipeline) => {
      void queryClient.invalidateQueries({ queryKey: ['projects', project.id, 'pipelines'] });
      void navigate(urls.pipeline(project.path_with_namespace, pipeline.id));
    },
  });
  const update = (row: number, change: Partial<Variable>) => setVariables((list) => list.map((item) => (item.row === row ? { ...item, ...change } : item)));

  return (
    <form
      aria-label="Run pipeline"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate({
          ref,
          variables: variables.filter((item) => item.key.trim() !== '').map(({ key, value, variable_type }) => ({ key: key.trim(), value, variable_type })),
        });
      }}
    >
      <Stack gap="normal">
        <Heading as="h2" style={{ fontSize: 20 }}>
          Run pipeline
        </Heading>
        {create.isError ? (
          <Flash variant="danger" role="alert">
            {errorLines(create.error).map((line) => (
              <div key={line}>{line}</div>
            ))}
          </Flash>
        ) : null}
        <FormControl>
          <FormControl.Label>Run for branch name or tag</FormControl.Label>
          <BranchSelect projectId={project.id} value={ref} onChange={setRef} label="Run for branch name or tag" />
        </FormControl>
        <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
          <legend style={{ fontWeight: 600, marginBottom: 8 }}>Variables</legend>
          <Stack gap="condensed">
            {variables.map((variable, index) => (
              <Stack key={variable.row} direction="horizontal" gap="condensed" align="end" wrap="wrap">
                <FormControl>
                  <FormControl.Label visuallyHidden>Variable type {index + 1}</FormControl.Label>
                  <Select value={variable.variable_type} onChange={(event) => update(variable.row, { variable_type: event.target.value as Variable['variable_type'] })}>
                    <Select.Option value="env_var">Variable</Select.Option>
                    <Select.Option value="file">File</Select.Option>
                  </Select>
                </FormControl>
                <FormControl>
                  <FormControl.Label visuallyHidden>Input variable key {index + 1}</FormControl.Label>
                  <TextInput placeholder="Input variable key" value={variable.key} onChange={(event) => update(variable.row, { key: event.target.value })} />
                </FormControl>
                <FormControl>
                  <FormControl.Label visuallyHidden>Input variable value {index + 1}</FormControl.Label>
                  <TextInput placeholder="Input variable value" value={variable.value} onChange={(event) => update(variable.row, { value: event.target.value })} />
                </FormControl>
                <IconButton
                  icon={TrashIcon}
                  variant="invisible"
                  aria-label={`Remove variable ${index + 1}`}
                  disabled={variables.length === 1}
                  onClick={() => setVariables((list) => list.filter((item) => item.row !== variable.row))}
                />
              </Stack>
            ))}
            <div>
              <Button
                size="small"
                leadingVisual={PlusIcon}
                onClick={() => setVariables((list) => [...list, { row: Math.max(...list.map((item) => item.row)) + 1, key: '', value: '', variable_type: 'env_var' }])}
              >
                Add variable
              </Button>
            </div>
          </Stack>
        </fieldset>
        <Stack direction="horizontal" gap="condensed">
          <Button type="submit" variant="primary" disabled={create.isPending || ref === ''}>
            Run pipeline
          </Button>
          <LinkButton to={urls.pipelines(project.path_with_namespace)}>Cancel</LinkButton>
        </Stack>
      </Stack>
    </form>
  );
}
