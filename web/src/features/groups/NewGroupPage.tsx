import { Button, FormControl, PageHeader, Select, Stack, TextInput, Textarea } from '@primer/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { LinkButton } from '../../components/AppLink';
import { FormError, fieldError } from '../../components/FormError';
import formStyles from '../../components/FormLayout.module.css';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useSlugField } from '../../components/useSlugField';
import { GROUP_VISIBILITY_DESCRIPTIONS, VisibilityRadios } from '../../components/VisibilityRadios';
import type { Visibility } from '../../lib/gitlab-types';
import { groupNameProblem } from '../../lib/group-name';
import { urls } from '../../lib/routes';
import { createGroupMutation, groupKeys, parentGroupOptionsQuery } from './api';

const NO_PARENT = '';

/** `/groups/new` (`?parent_id=` makes a subgroup). */
export function NewGroupPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const parents = useQuery(parentGroupOptionsQuery());
  const { name, path, setName, setPath } = useSlugField();
  const [parentId, setParentId] = useState(params.get('parent_id') ?? NO_PARENT);
  const [visibility, setVisibility] = useState<Visibility>('private');
  const [description, setDescription] = useState('');
  const [tried, setTried] = useState(false);
  const create = useMutation({
    ...createGroupMutation(),
    onSuccess: (group) => {
      void queryClient.invalidateQueries({ queryKey: groupKeys.all });
      void navigate(urls.group(group.full_path));
    },
  });

  const parent = parents.data?.find((group) => String(group.id) === parentId);
  const isSubgroup = parentId !== NO_PARENT;
  useDocumentTitle([isSubgroup ? 'New subgroup' : 'New group']);

  // GitLab's form rules, said on submit rather than by a disabled button; the server checks the same.
  const nameProblem = groupNameProblem(name);
  const pathProblem = path.trim() === '' ? 'Please enter a group URL.' : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (nameProblem || pathProblem) return;
    create.mutate({
      name: name.trim(),
      path: path.trim(),
      visibility,
      description: description.trim() || undefined,
      parent_id: isSubgroup ? Number(parentId) : undefined,
    });
  }

  return (
    <Stack gap="normal">
      <PageHeader>
        <PageHeader.TitleArea>
          <PageHeader.Title as="h1">{isSubgroup ? 'Create subgroup' : 'Create group'}</PageHeader.Title>
        </PageHeader.TitleArea>
        <PageHeader.Description>
          Groups allow you to manage and collaborate across multiple projects. Members of a group have access to all of its projects.
        </PageHeader.Description>
      </PageHeader>
      <form className={formStyles.form} onSubmit={submit} noValidate>
        <FormError error={create.error} title="The group could not be created." />
        <FormControl required>
          <FormControl.Label requiredIndicator={false}>Group name</FormControl.Label>
          <TextInput block autoFocus value={name} onChange={(event) => setName(event.target.value)} placeholder="My awesome group" />
          {tried && nameProblem ? (
            <FormControl.Validation variant="error">{nameProblem}</FormControl.Validation>
          ) : fieldError(create.error, 'name') ? (
            <FormControl.Validation variant="error">{fieldError(create.error, 'name')}</FormControl.Validation>
          ) : (
            <FormControl.Caption>Must start with letter, digit, emoji, or underscore. Can also contain periods, dashes, spaces, and parentheses.</FormControl.Caption>
          )}
        </FormControl>
        <div className={formStyles.row}>
          <FormControl disabled={parents.isPending}>
            <FormControl.Label>Parent group (optional)</FormControl.Label>
            <Select block value={parentId} onChange={(event) => setParentId(event.target.value)}>
              <Select.Option value={NO_PARENT}>No parent (top-level group)</Select.Option>
              {parentId !== NO_PARENT && !parent ? <Select.Option value={parentId}>{`Group #${parentId}`}</Select.Option> : null}
              {(parents.data ?? []).map((group) => (
                <Select.Option key={group.id} value={String(group.id)}>
                  {group.full_path}
                </Select.Option>
              ))}
            </Select>
            {parents.isError ? <FormControl.Validation variant="error">Parent groups could not be loaded.</FormControl.Validation> : null}
          </FormControl>
          <FormControl required>
            <FormControl.Label requiredIndicator={false}>Group URL</FormControl.Label>
            <TextInput
              block
              leadingVisual={<span className={formStyles.urlPrefix}>/{parent ? `${parent.full_path}/` : ''}</span>}
              value={path}
              onChange={(event) => setPath(event.target.value)}
              placeholder="my-awesome-group"
            />
            {tried && pathProblem ? (
              <FormControl.Validation variant="error">{pathProblem}</FormControl.Validation>
            ) : fieldError(create.error, 'path') ? (
              <FormControl.Validation variant="error">{fieldError(create.error, 'path')}</FormControl.Validation>
            ) : null}
          </FormControl>
        </div>
        <FormControl>
          <FormControl.Label>Group description (optional)</FormControl.Label>
          <Textarea block rows={3} value={description} onChange={(event) => setDescription(event.target.value)} />
        </FormControl>
        <VisibilityRadios value={visibility} onChange={setVisibility} descriptions={GROUP_VISIBILITY_DESCRIPTIONS} />
        <div className={formStyles.actions}>
          <Button type="submit" variant="primary" loading={create.isPending}>
            {isSubgroup ? 'Create subgroup' : 'Create group'}
          </Button>
          <LinkButton to={parent ? urls.group(parent.full_path) : '/dashboard/groups'}>Cancel</LinkButton>
        </div>
      </form>
    </Stack>
  );
}
