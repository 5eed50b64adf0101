import { DownloadIcon, FileBinaryIcon, FileIcon, HistoryIcon } from '@primer/octicons-react';
import { Button, Stack } from '@primer/react';
import { SkeletonText } from '@primer/react/experimental';
import { useQuery } from '@tanstack/react-query';
import { LinkButton } from '../../components/AppLink';
import { CopyButton } from '../../components/CopyButton';
import { EmptyState } from '../../components/EmptyState';
import { PageError } from '../../components/PageError';
import { classifyFile, formatBytes, languageForFile, MAX_RENDERED_FILE_BYTES } from '../../lib/file-content';
import { urls } from '../../lib/routes';
import { fileQuery, rawFileUrl } from './api';
import { CodeView } from './CodeView';
import styles from './FileViewer.module.css';

/** One file at one ref: name, size, Raw/Download/History, and the content (text, image or a message). */
export function FileViewer({ projectId, fullPath, ref, path }: { projectId: number; fullPath: string; ref: string; path: string }) {
  const file = useQuery(fileQuery(projectId, ref, path));
  const raw = rawFileUrl(projectId, path, ref);
  const name = path.slice(path.lastIndexOf('/') + 1);

  if (file.isPending) {
    return (
      <div className={styles.box} role="status" aria-label="Loading file">
        <div className={styles.body}>
          <SkeletonText lines={8} />
        </div>
      </div>
    );
  }
  if (file.isError) return <PageError title="The file could not be loaded." error={file.error} onRetry={() => void file.refetch()} />;

  const display = classifyFile(file.data);
  return (
    <div className={styles.box}>
      <div className={styles.header}>
        <Stack direction="horizontal" align="center" gap="condensed">
          <FileIcon />
          <strong>{name}</strong>
          <span className="fgMuted">{formatBytes(file.data.size)}</span>
        </Stack>
        <Stack direction="horizontal" align="center" gap="condensed">
          {display.kind === 'text' ? <CopyButton text={display.text} label="Copy file contents" size="small" /> : null}
          <Button as="a" href={raw} size="small" target="_blank" rel="noopener">
            Open raw
          </Button>
          <Button as="a" href={raw} size="small" download={name} leadingVisual={DownloadIcon}>
            Download
          </Button>
          <LinkButton to={urls.commits(fullPath, ref, path)} size="small" leadingVisual={HistoryIcon}>
            History
          </LinkButton>
        </Stack>
      </div>
      {display.kind === 'text' ? (
        <CodeView text={display.text} language={languageForFile(name)} label={`Contents of ${name}`} />
      ) : display.kind === 'image' ? (
        <div className={styles.image}>
          <img src={raw} alt={name} />
        </div>
      ) : display.kind === 'empty' ? (
        <div className={styles.body}>
          <span className="fgMuted">Empty file</span>
        </div>
      ) : (
        <div className={styles.body}>
          <EmptyState
            border={false}
            icon={FileBinaryIcon}
            title={display.kind === 'binary' ? 'This file is stored in a binary format' : 'This file is too large to display'}
            description={
              display.kind === 'binary'
                ? 'The source could not be displayed because it is stored in a binary format. You can download it instead.'
                : `The source could not be displayed because it is larger than ${formatBytes(MAX_RENDERED_FILE_BYTES)}. You can view it raw or download it.`
            }
          >
            <Button as="a" href={raw} download={name} leadingVisual={DownloadIcon}>
              Download
            </Button>
          </EmptyState>
        </div>
      )}
    </div>
  );
}
