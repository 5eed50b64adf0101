import { Button, Checkbox, FormControl, PageHeader, Select, Stack, TextInput, Textarea } from '@primer/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { LinkButton } from '../../components/AppLink';
import { FormError, fieldError } from '../../components/FormError';
import formStyles from '../../components/FormLayout.module.css';
import { PageError } from '../../components/PageError';
import { PageLoading } from '../../components/PageLoading';
import { useSlugField } from '../../components/useSlugField';
import { PROJECT_VISIBILITY_DESCRIPTIONS, VisibilityRadios } from '../../components/VisibilityRadios';
import type { Visibility } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { createProjectMutation, namespacesQuery, projectKeys } from './api';
import { useDocumentTitle } from '../../components/useDocumentTitle';

/** `/projects/new`: GitLab's "Create blank project" form. `?namespace_id=` preselects a group. */
export function NewProjectPage() {
  useDocumentTitle(['New project']);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const namespaces = useQuery(namespacesQuery());
  const { name, path, setName, setPath } = useSlugField();
  const [namespaceId, setNamespaceId] = useState<number | null>(null);
  const [visibility, setVisibility] = useState<Visibility>('private');
  const [description, setDescription] = useState('');
  const [tried, setTried] = useState(false);
  const [readme, setReadme] = useState(true);
  const create = useMutation({
    ...createProjectMutation(),
    onSuccess: (project) => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
      queryClient.setQueryData(projectKeys.detail(project.path_with_namespace), project);
      void navigate(urls.project(project.path_with_namespace));
    },
  });

  useEffect(() => {
    if (namespaceId !== null || !namespaces.data || namespaces.data.length === 0) return;
    const requested = Number(params.get('namespace_id'));
    const preferred = namespaces.data.find((ns) => ns.id === requested) ?? namespaces.data.find((ns) => ns.kind === 'user');
    setNamespaceId((preferred ?? namespaces.data[0])!.id);
  }, [namespaces.data, namespaceId, params]);

  if (namespaces.isPending) return <PageLoading label="Loading namespaces" />;
  if (namespaces.isError) return <PageError error={namespaces.error} onRetry={() => void namespaces.refetch()} />;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (namespaceId === null || !name.trim() || !path.trim()) return;
    create.mutate({
      name: name.trim(),
      path: path.trim(),
      namespace_id: namespaceId,
      visibility,
      description: description.trim(),
      initialize_with_readme: readme,
    });
  }

  const origin = window.location.origin;
  return (
    <Stack gap="normal">
      <PageHeader>
        <PageHeader.TitleArea>
          <PageHeader.Title as="h1">Create blank project</PageHeader.Title>
        </PageHeader.TitleArea>
        <PageHeader.Description>
          Create a blank project to store your files, plan your work, and collaborate on code, among other things.
        </PageHeader.Description>
      </PageHeader>
      <form className={formStyles.form} onSubmit={submit} noValidate>
        <FormError error={create.error} title="The project could not be created." />
        <FormControl required>
          <FormControl.Label requiredIndicator={false}>Project name</FormControl.Label>
          <TextInput block value={name} onChange={(event) => setName(event.target.value)} placeholder="My awesome project" autoFocus />
          {tried && !name.trim() ? (
            <FormControl.Validation variant="error">Please enter a project name.</FormControl.Validation>
          ) : fieldError(create.error, 'name') ? (
            <FormControl.Validation variant="error">{fieldError(create.error, 'name')}</FormControl.Validation>
          ) : (
            <FormControl.Caption>Must start with a lowercase or uppercase letter, digit, emoji, or underscore.</FormControl.Caption>
          )}
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
            {fieldError(create.error, 'namespace') ? (
              <FormControl.Validation variant="error">{fieldError(create.error, 'namespace')}</FormControl.Validation>
            ) : null}
          </FormControl>
          <FormControl required>
            <FormControl.Label requiredIndicator={false}>Project slug</FormControl.Label>
            <TextInput block value={path} onChange={(event) => setPath(event.target.value)} placeholder="my-awesome-project" />
            {tried && !path.trim() ? (
              <FormControl.Validation variant="error">Please enter a project slug.</FormControl.Validation>
            ) : fieldError(create.error, 'path') ? (
              <FormControl.Validation variant="error">{fieldError(create.error, 'path')}</FormControl.Validation>
            ) : null}
          </FormControl>
        </div>
        <FormControl>
          <FormControl.Label>Project description (optional)</FormControl.Label>
          <Textarea block rows={3} value={description} onChange={(event) => setDescription(event.target.value)} />
        </FormControl>
        <VisibilityRadios value={visibility} onChange={setVisibility} descriptions={PROJECT_VISIBILITY_DESCRIPTIONS} />
        <FormControl>
          <Checkbox checked={readme} onChange={(event) => setReadme(event.target.checked)} />
          <FormControl.Label>Initialize repository with a README</FormControl.Label>
          <FormControl.Caption>
            Allows you to immediately clone this project’s repository. Skip this if you plan to push up an existing repository.
          </FormControl.Caption>
        </FormControl>
        <div className={formStyles.actions}>
          <Button type="submit" variant="primary" loading={create.isPending} disabled={namespaceId === null}>
            Create project
          </Button>
          <LinkButton to="/">Cancel</LinkButton>
        </div>
      </form>
    </Stack>
  );
}
