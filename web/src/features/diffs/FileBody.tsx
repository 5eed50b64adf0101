import { AlertIcon, DownloadIcon, FileBinaryIcon, LinkExternalIcon, XIcon } from '@primer/octicons-react';
import { Button, Flash, IconButton, Link, Spinner } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { t } from '@tributary/contracts/i18n';
import { Link as RouterLink } from 'react-router-dom';
import { displayPath, type DiffFile } from '../../lib/diff-file';
import { urls } from '../../lib/routes';
import { parseGitmodules, submoduleCompareUrl, submoduleShas, submoduleWebUrl } from '../../lib/submodule';
import { rawFileUrl } from '../repository';
import { rawFileQuery } from './api';
import { useDiffContext } from './DiffContext';
import styles from './FileBody.module.css';
import { ImageDiff } from './ImageDiff';

const SHORT_SHA = 8;

function Notice({ children }: { children: React.ReactNode }) {
  return <div className={styles.notice}>{children}</div>;
}

function LoadError({ file, message }: { file: DiffFile; message: string }) {
  const { actions } = useDiffContext();
  return (
    <Flash variant="danger" className={styles.flash} role="alert">
      <span className={styles.flashBody}>
        <AlertIcon /> {message}
      </span>
      <IconButton icon={XIcon} aria-label="Dismiss" variant="invisible" size="small" onClick={() => actions.dismissError(file)} />
    </Flash>
  );
}

/** The renamed-file viewer, loading → errored or normal. */
function RenamedViewer({ file }: { file: DiffFile }) {
  const { actions, stateOf } = useDiffContext();
  const state = stateOf(file);
  return (
    <Notice>
      {state.error ? <LoadError file={file} message={state.error} /> : null}
      <p>File renamed with no changes.</p>
      {state.load === 'loading' ? (
        <Spinner size="small" srText="Loading file contents" />
      ) : (
        <Button size="small" onClick={() => actions.showContents(file)}>
          {t('Show file contents')}
        </Button>
      )}
    </Notice>
  );
}

function BinaryViewer({ file }: { file: DiffFile }) {
  const { refs } = useDiffContext();
  const sha = file.deletedFile ? refs.baseSha : refs.headSha;
  const path = displayPath(file);
  return (
    <Notice>
      <FileBinaryIcon size={24} className="fgMuted" />
      <p>{path.slice(path.lastIndexOf('/') + 1)} is a binary file and cannot be shown as text.</p>
      {sha ? (
        <Button as="a" href={rawFileUrl(refs.projectId, path, sha)} download={path.slice(path.lastIndexOf('/') + 1)} size="small" leadingVisual={DownloadIcon}>
          Download
        </Button>
      ) : null}
    </Notice>
  );
}

function SubmoduleViewer({ file }: { file: DiffFile }) {
  const { refs } = useDiffContext();
  const { oldSha, newSha } = submoduleShas(file.parsed);
  const gitmodules = useQuery({ ...rawFileQuery(refs.projectId, refs.headSha ?? '', '.gitmodules'), enabled: refs.headSha !== null, retry: false });
  const remote = gitmodules.data?.text ? parseGitmodules(gitmodules.data.text).get(file.newPath) : undefined;
  const web = remote ? submoduleWebUrl(remote) : null;
  const compare = web ? submoduleCompareUrl(web, oldSha, newSha) : null;
  const short = (sha: string | null) => (sha ? sha.slice(0, SHORT_SHA) : '—');
  return (
    <Notice>
      <p>
        Submodule commit <code>{short(oldSha)}</code> → <code>{short(newSha)}</code>
      </p>
      {compare ? (
        <Link href={compare} target="_blank" rel="noopener noreferrer">
          {oldSha ? `Compare ${short(oldSha)}...${short(newSha)}` : `Browse ${short(newSha)}`} <LinkExternalIcon />
        </Link>
      ) : remote ? (
        <span className="fgMuted">{remote}</span>
      ) : null}
    </Notice>
  );
}

function CollapsedNotice({ file }: { file: DiffFile }) {
  const { actions, stateOf } = useDiffContext();
  const state = stateOf(file);
  return (
    <Notice>
      {state.error ? <LoadError file={file} message={state.error} /> : null}
      <p>This diff is collapsed.</p>
      {state.load === 'loading' ? (
        <Spinner size="small" srText="Loading the diff" />
      ) : (
        <Button size="small" onClick={() => actions.expandCollapsed(file)}>
          Expand
        </Button>
      )}
    </Notice>
  );
}

function TooLarge({ file }: { file: DiffFile }) {
  const { refs } = useDiffContext();
  const sha = file.deletedFile ? refs.baseSha : refs.headSha;
  const path = displayPath(file);
  return (
    <Notice>
      <p>The changes to this file are too large to display.</p>
      {sha ? (
        <span className={styles.links}>
          <Link as={RouterLink} to={urls.blob(refs.fullPath, sha, path)}>
            {t('View file @ %{commitSha}', { commitSha: sha.slice(0, SHORT_SHA) })}
          </Link>
          <Link href={rawFileUrl(refs.projectId, path, sha)} target="_blank" rel="noopener">
            Open raw
          </Link>
        </span>
      ) : null}
    </Notice>
  );
}

/** Everything but rows of text: the viewer GitLab uses for the file's kind. */
export function FileBody({ file, body }: { file: DiffFile; body: 'viewer' | 'collapsed' }) {
  const { stateOf } = useDiffContext();
  const state = stateOf(file);
  if (body === 'collapsed') return <CollapsedNotice file={file} />;
  if (state.binary) return <BinaryViewer file={file} />;
  switch (file.viewer) {
    case 'image':
      return <ImageDiff file={file} />;
    case 'binary':
      return <BinaryViewer file={file} />;
    case 'renamed':
      return <RenamedViewer file={file} />;
    case 'mode-changed':
      return <Notice>{t('File mode changed from %{from} to %{to}', { from: file.aMode, to: file.bMode })}</Notice>;
    case 'submodule':
      return <SubmoduleViewer file={file} />;
    case 'too-large':
      return <TooLarge file={file} />;
    case 'collapsed':
      return <CollapsedNotice file={file} />;
    case 'empty':
    case 'text':
      return <Notice>{file.newFile || file.deletedFile ? 'Empty file' : 'No changes.'}</Notice>;
  }
}
