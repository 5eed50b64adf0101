import { FileIcon, GitBranchIcon, LockIcon } from '@primer/octicons-react';
import { Button, Flash, FormControl, PageHeader, Stack, Textarea, TextInput } from '@primer/react';
import { SkeletonText } from '@primer/react/experimental';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { LinkButton } from '../../components/AppLink';
import { FormError } from '../../components/FormError';
import { PageError } from '../../components/PageError';
import { ApiError } from '../../lib/api-error';
import type { Project } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { branchQuery, createFileMutation, repositoryKeys } from './api';
import { fileCreate, NEW_FILE_COMMIT_MESSAGE, newFilePath } from './new-file';
import { RefGate } from './RefGate';
import styles from './SingleFileEditor.module.css';

/**
 * `/<path>/-/new/<branch>/<dir>`: GitLab's new file form. The name may hold directories;
 * `?file_name=` and `?commit_message=` (GitLab's parameters) fill the form. The file is committed
 * to the branch, or to a new branch started from it; only for those who may push to the branch.
 */
export function NewFilePage({ project, refAndPath }: { project: Project; refAndPath: string }) {
  return <RefGate projectId={project.id} refAndPath={refAndPath}>{(ref, dir) => <NewFile project={project} ref={ref} dir={dir} />}</RefGate>;
}

function NewFile({ project, ref, dir }: { project: Project; ref: string; dir: string }) {
  const branch = useQuery({ ...branchQuery(project.id, ref), retry: false });
  let body;
  if (branch.isPending) {
    body = (
      <div role="status" aria-label="Loading branch">
        <SkeletonText lines={6} />
      </div>
    );
  } else if (branch.isError) {
    body =
      branch.error instanceof ApiError && branch.error.status === 404 ? (
        <Flash variant="warning">Files can only be added to a branch: {ref} is not a branch.</Flash>
      ) : (
        <PageError title="The branch could not be loaded." error={branch.error} onRetry={() => void branch.refetch()} />
      );
  } else if (!branch.data.can_push) {
    body = (
      <Flash variant="warning">
        <LockIcon /> You are not allowed to push to {ref}, so you cannot add files to it.
      </Flash>
    );
  } else {
    body = <Form project={project} ref={ref} dir={dir} />;
  }
  return (
    <Stack gap="normal">
      <PageHeader>
        <PageHeader.TitleArea>
          <PageHeader.Title as="h1">New file</PageHeader.Title>
        </PageHeader.TitleArea>
        <PageHeader.Description>
          in <code>{dir ? `${dir}/` : '/'}</code> on <code>{ref}</code>
        </PageHeader.Description>
      </PageHeader>
      {body}
    </Stack>
  );
}

function Form({ project, ref, dir }: { project: Project; ref: string; dir: string }) {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState(search.get('file_name') ?? '');
  const [text, setText] = useState('');
  const [message, setMessage] = useState(search.get('commit_message') ?? NEW_FILE_COMMIT_MESSAGE);
  const [targetBranch, setTargetBranch] = useState(ref);
  const [tried, setTried] = useState(false);
  const path = newFilePath(dir, name);
  const create = useMutation({
    ...createFileMutation(project.id),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: repositoryKeys.all(project.id) });
      void navigate(urls.blob(project.path_with_namespace, created.branch, created.file_path));
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (path === null) return;
    create.mutate({ path, body: fileCreate({ ref, targetBranch, text, message }) });
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <FormError error={create.error} title="The file could not be created." />
      <FormControl required>
        <FormControl.Label>
          <FileIcon /> File name
        </FormControl.Label>
        <TextInput block autoFocus value={name} onChange={(event) => setName(event.target.value)} placeholder="Filename" leadingVisual={dir ? `${dir}/` : undefined} autoComplete="off" />
        {tried && path === null ? <FormControl.Validation variant="error">Enter a file name (it cannot end with / or contain . or .. directories).</FormControl.Validation> : null}
      </FormControl>
      <FormControl>
        <FormControl.Label>Content</FormControl.Label>
        <Textarea className={styles.editor} block rows={16} value={text} onChange={(event) => setText(event.target.value)} spellCheck={false} resize="vertical" />
      </FormControl>
      <FormControl required>
        <FormControl.Label requiredIndicator={false}>Commit message</FormControl.Label>
        <Textarea block rows={3} value={message} onChange={(event) => setMessage(event.target.value)} />
      </FormControl>
      <FormControl>
        <FormControl.Label>
          <GitBranchIcon /> Target branch
        </FormControl.Label>
        <TextInput block value={targetBranch} onChange={(event) => setTargetBranch(event.target.value)} autoComplete="off" />
        <FormControl.Caption>{targetBranch.trim() && targetBranch.trim() !== ref ? `A new branch ${targetBranch.trim()} is started from ${ref}.` : `The file is committed to ${ref}.`}</FormControl.Caption>
      </FormControl>
      <div className={styles.actions}>
        <Button type="submit" variant="primary" loading={create.isPending}>
          Commit changes
        </Button>
        <LinkButton to={urls.tree(project.path_with_namespace, ref, dir)}>Cancel</LinkButton>
      </div>
    </form>
  );
}
