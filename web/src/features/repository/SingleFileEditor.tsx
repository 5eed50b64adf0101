import { FileIcon, GitBranchIcon, LockIcon } from '@primer/octicons-react';
import { Button, Flash, FormControl, PageHeader, Stack, Textarea } from '@primer/react';
import { SkeletonText } from '@primer/react/experimental';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { LinkButton } from '../../components/AppLink';
import { FormError } from '../../components/FormError';
import { PageError } from '../../components/PageError';
import { ApiError } from '../../lib/api-error';
import type { Project, RepositoryFile } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { branchQuery, fileQuery, repositoryKeys, updateFileMutation } from './api';
import { defaultCommitMessage, editableFile, fileUpdate } from './edit-file';
import styles from './SingleFileEditor.module.css';

/** Where the editor returns to: the merge request it was opened from, else the file on its branch. */
export interface EditOrigin {
  mergeRequestIid: number | null;
}

function Form({ project, branch, path, file, origin }: { project: Project; branch: string; path: string; file: RepositoryFile; origin: EditOrigin }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const editable = editableFile(file);
  const original = editable.kind === 'text' ? editable.text : '';
  const [text, setText] = useState(original);
  const [message, setMessage] = useState(() => defaultCommitMessage(path));
  const back = origin.mergeRequestIid !== null ? urls.mergeRequest(project.path_with_namespace, origin.mergeRequestIid, 'diffs') : urls.blob(project.path_with_namespace, branch, path);
  const save = useMutation({
    ...updateFileMutation(project.id, path),
    onSuccess: async () => {
      // The branch moved: every cached read of the repository and of merge requests may be stale.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: repositoryKeys.all(project.id) }),
        queryClient.invalidateQueries({ queryKey: ['merge-requests'] }),
      ]);
      void navigate(back);
    },
  });

  if (editable.kind === 'not-editable') return <Flash variant="warning">{editable.reason}</Flash>;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (editable.kind !== 'text') return;
    save.mutate(fileUpdate({ branch, text, crlf: editable.crlf, message, lastCommitId: file.last_commit_id }));
  }

  const unchanged = text === original;
  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <FormError error={save.error} title="The file could not be saved." />
      <FormControl>
        <FormControl.Label>
          <FileIcon /> {path}
        </FormControl.Label>
        <Textarea className={styles.editor} block rows={Math.min(Math.max(original.split('\n').length + 2, 12), 40)} value={text} onChange={(event) => setText(event.target.value)} spellCheck={false} resize="vertical" aria-label={`Contents of ${path}`} />
      </FormControl>
      <FormControl required>
        <FormControl.Label requiredIndicator={false}>Commit message</FormControl.Label>
        <Textarea block rows={3} value={message} onChange={(event) => setMessage(event.target.value)} />
      </FormControl>
      <p className={styles.branch}>
        <GitBranchIcon />
        <span>
          The change is committed to <code>{branch}</code>.
        </span>
      </p>
      <div className={styles.actions}>
        <Button type="submit" variant="primary" loading={save.isPending} disabled={unchanged || message.trim() === ''}>
          Commit changes
        </Button>
        <LinkButton to={back}>Cancel</LinkButton>
        {unchanged ? <span className="fgMuted">Change the file to commit it.</span> : null}
      </div>
    </form>
  );
}

/**
 * GitLab's single-file editor (`/<path>/-/edit/<branch>/<file>`): the file's text in a
 * textarea, a commit message, and one commit to the branch through the files API. Only
 * for a branch the reader may push to; the update names the commit the edit started
 * from, so a file changed meanwhile is refused rather than overwritten.
 */
export function SingleFileEditor({ project, ref, path, origin }: { project: Project; ref: string; path: string; origin: EditOrigin }) {
  const branch = useQuery({ ...branchQuery(project.id, ref), retry: false });
  const file = useQuery({ ...fileQuery(project.id, ref, path), enabled: branch.data?.can_push === true, staleTime: 0 });

  let body;
  if (branch.isPending || (branch.data?.can_push && file.isPending)) {
    body = (
      <div role="status" aria-label="Loading file">
        <SkeletonText lines={8} />
      </div>
    );
  } else if (branch.isError) {
    body =
      branch.error instanceof ApiError && branch.error.status === 404 ? (
        <Flash variant="warning">Only files on a branch can be edited: {ref} is not a branch.</Flash>
      ) : (
        <PageError title="The branch could not be loaded." error={branch.error} onRetry={() => void branch.refetch()} />
      );
  } else if (!branch.data.can_push) {
    body = (
      <Flash variant="warning">
        <LockIcon /> You are not allowed to push to {ref}, so you cannot edit its files.
      </Flash>
    );
  } else if (file.isError) {
    body = <PageError title="The file could not be loaded." error={file.error} onRetry={() => void file.refetch()} />;
  } else if (file.data) {
    body = <Form project={project} branch={ref} path={path} file={file.data} origin={origin} />;
  }

  return (
    <Stack gap="normal">
      <PageHeader>
        <PageHeader.TitleArea>
          <PageHeader.Title as="h1">Edit file</PageHeader.Title>
        </PageHeader.TitleArea>
        <PageHeader.Description>
          <code>{path}</code> on <code>{ref}</code>
        </PageHeader.Description>
      </PageHeader>
      {body}
    </Stack>
  );
}
