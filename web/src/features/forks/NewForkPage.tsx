import { RepoForkedIcon } from '@primer/octicons-react';
import { Button, FormControl, Heading, Select, Stack, Text, TextInput, Textarea } from '@primer/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { LinkButton } from '../../components/AppLink';
import { FormError, fieldError } from '../../components/FormError';
import formStyles from '../../components/FormLayout.module.css';
import { PageError } from '../../components/PageError';
import { PageLoading } from '../../components/PageLoading';
import { PROJECT_VISIBILITY_DESCRIPTIONS, VisibilityRadios } from '../../components/VisibilityRadios';
import type { Project, Visibility } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { namespacesQuery, projectKeys } from '../projects';
import { forkProjectMutation } from './api';

const ORDER: Visibility[] = ['private', 'internal', 'public'];

/** A fork can be no more visible than its source (the server lowers it anyway). */
function moreVisibleThan(source: Visibility): Visibility[] {
  return ORDER.slice(ORDER.indexOf(source) + 1);
}

/** `/<path>/-/forks/new`: GitLab's "Fork project": where the copy goes, its name and visibility. */
export function NewForkPage({ project }: { project: Project }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const namespaces = useQuery(namespacesQuery());
  const [namespaceId, setNamespaceId] = useState<number | null>(null);
  const [name, setName] = useState(project.name);
  const [path, setPath] = useState(project.path);
  const [description, setDescription] = useState(project.description ?? '');
  const [visibility, setVisibility] = useState<Visibility>(project.visibility);
  const fork = useMutation({
    ...forkProjectMutation(project.id),
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.all });
      void navigate(urls.project(created.path_with_namespace));
    },
  });

  useEffect(() => {
    if (namespaceId !== null || !namespaces.data?.length) return;
    // The caller's own namespace first, unless that is where the project already is.
    const candidates = namespaces.data.filter((ns) => ns.id !== project.namespace.id);
    const preferred = candidates.find((ns) => ns.kind === 'user') ?? candidates[0] ?? namespaces.data[0];
    setNamespaceId(preferred!.id);
  }, [namespaces.data, namespaceId, project.namespace.id]);

  if (namespaces.isPending) return <PageLoading label="Loading namespaces" />;
  if (namespaces.isError) return <PageError error={namespaces.error} onRetry={() => void namespaces.refetch()} />;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (namespaceId === null) return;
    fork.mutate({ namespace_id: namespaceId, name: name.trim(), path: path.trim(), visibility, description: description.trim() });
  }

  const origin = window.location.origin;
  return (
    <Stack gap="normal">
      <Heading as="h2" variant="medium">
        <RepoForkedIcon /> Fork project
      </Heading>
      <Text as="p" className="fgMuted">
        A fork is a copy of a project. Forking a repository allows you to make changes without affecting the original project.
      </Text>
      <form className={formStyles.form} onSubmit={submit} noValidate>
        <FormError error={fork.error} title="The project could not be forked." />
        <FormControl required>
          <FormControl.Label requiredIndicator={false}>Project name</FormControl.Label>
          <TextInput block value={name} onChange={(event) => setName(event.target.value)} />
          {fieldError(fork.error, 'name') ? <FormControl.Validation variant="error">{fieldError(fork.error, 'name')}</FormControl.Validation> : null}
        </FormControl>
        <div className={formStyles.row}>
          <FormControl required>
            <FormControl.Label requiredIndicator={false}>Project URL</FormControl.Label>
            <Select block value={namespaceId === null ? '' : String(namespaceId)} onChange={(event) => setNamespaceId(Number(event.target.value))}>
              {namespaces.data.map((ns) => (
                <Select.Option key={ns.id} value={String(ns.id)}>
                  {`${origin}/${ns.full_path}/`}
                </Select.Option>
              ))}
            </Select>
            {fieldError(fork.error, 'namespace') ? <FormControl.Validation variant="error">{fieldError(fork.error, 'namespace')}</FormControl.Validation> : null}
          </FormControl>
          <FormControl required>
            <FormControl.Label requiredIndicator={false}>Project slug</FormControl.Label>
            <TextInput block value={path} onChange={(event) => setPath(event.target.value)} />
            {fieldError(fork.error, 'path') ? <FormControl.Validation variant="error">{fieldError(fork.error, 'path')}</FormControl.Validation> : null}
          </FormControl>
        </div>
        <FormControl>
          <FormControl.Label>Project description (optional)</FormControl.Label>
          <Textarea block rows={3} value={description} onChange={(event) => setDescription(event.target.value)} />
        </FormControl>
        <VisibilityRadios value={visibility} onChange={setVisibility} descriptions={PROJECT_VISIBILITY_DESCRIPTIONS} disabled={moreVisibleThan(project.visibility)} />
        <div className={formStyles.actions}>
          <Button type="submit" variant="primary" loading={fork.isPending} disabled={!name.trim() || !path.trim() || namespaceId === null}>
            Fork project
          </Button>
          <LinkButton to={urls.project(project.path_with_namespace)}>Cancel</LinkButton>
        </div>
      </form>
    </Stack>
  );
}
