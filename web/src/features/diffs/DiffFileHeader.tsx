import {
  ChevronDownIcon,
  ChevronRightIcon,
  FileAddedIcon,
  FileDiffIcon,
  FileMovedIcon,
  FileRemovedIcon,
  FileSubmoduleIcon,
  FileSymlinkFileIcon,
  KebabHorizontalIcon,
  LinkExternalIcon,
} from '@primer/octicons-react';
import { ActionList, ActionMenu, IconButton, Label } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import { Link as RouterLink } from 'react-router-dom';
import { CopyButton } from '../../components/CopyButton';
import { displayPath, type DiffFile } from '../../lib/diff-file';
import { urls } from '../../lib/routes';
import { useDiffContext } from './DiffContext';
import { useDiffSlots } from './DiffSlots';
import { showsText } from './diff-items';
import { isCollapsed } from './file-states';
import styles from './DiffFileHeader.module.css';

const SHORT_SHA = 8;

export function FileStatusIcon({ file }: { file: DiffFile }) {
  if (file.viewer === 'submodule') return <FileSubmoduleIcon aria-label="Submodule" className={styles.statusModified} />;
  if (file.symlink && !file.newFile && !file.deletedFile) return <FileSymlinkFileIcon aria-label="Symbolic link" className={styles.statusModified} />;
  switch (file.status) {
    case 'added':
      return <FileAddedIcon aria-label="Added" className={styles.statusAdded} />;
    case 'deleted':
      return <FileRemovedIcon aria-label="Deleted" className={styles.statusDeleted} />;
    case 'renamed':
      return <FileMovedIcon aria-label="Renamed" className={styles.statusRenamed} />;
    default:
      return <FileDiffIcon aria-label="Modified" className={styles.statusModified} />;
  }
}

/**
 * A file's header, as GitLab's diff file header lists it: path (old → new when
 * renamed), copy path, mode change, LFS badge, stats, and the more-actions menu (view file
 * @ sha, edit in single-file editor, open in Web IDE (the single-file editor: there is no
 * Web IDE), view replaced file, show full file / show changes only). A page adds its own controls and menu entries through the viewer's slots (DiffSlots): a merge
 * request the 'Viewed' checkbox, comment-on-file and hide or show comments.
 */
export function DiffFileHeader({ file }: { file: DiffFile }) {
  const { refs, stateOf, actions } = useDiffContext();
  const { FileHeaderControls, FileMenuItems } = useDiffSlots();
  const state = stateOf(file);
  const collapsed = isCollapsed(state, file.startsCollapsed);
  const path = displayPath(file);
  // A diff computed after "Expand" knows what the server did not send.
  const counts = state.computed ?? (file.countsKnown ? file : null);
  const viewSha = file.deletedFile ? refs.baseSha : refs.headSha;
  const canToggleFullFile = showsText(file, state) && !file.newFile && !file.deletedFile && !state.showContents && refs.headSha !== null;
  // What the single-file editor can change: text that exists on the branch (not binaries, images, links or submodules).
  const canEdit = refs.editRef !== null && !file.deletedFile && !file.symlink && file.viewer !== 'submodule' && file.viewer !== 'image' && file.viewer !== 'binary' && !state.binary;
  const canViewReplaced = !file.newFile && refs.baseSha !== null && file.viewer !== 'submodule' && (file.status === 'modified' || file.renamedFile);
  const viewLabel = viewSha ? t('View file @ %{commitSha}', { commitSha: viewSha.slice(0, SHORT_SHA) }) : '';
  // GitLab's parameter: after the commit the editor returns to this merge request.
  const editUrl = refs.editRef ? urls.edit(refs.fullPath, refs.editRef, file.newPath) + (refs.mergeRequestIid ? `?from_merge_request_iid=${refs.mergeRequestIid}` : '') : null;

  return (
    <div className={styles.header}>
      <IconButton
        icon={collapsed ? ChevronRightIcon : ChevronDownIcon}
        aria-label={collapsed ? `Expand ${path}` : `Collapse ${path}`}
        aria-expanded={!collapsed}
        variant="invisible"
        size="small"
        onClick={() => actions.toggleCollapsed(file)}
      />
      <FileStatusIcon file={file} />
      <h3 className={styles.path} title={path}>
        {file.renamedFile ? (
          <>
            <span className={styles.oldPath}>{file.oldPath}</span> <span aria-label="renamed to">→</span> {file.newPath}
          </>
        ) : (
          path
        )}
      </h3>
      <CopyButton text={path} label="Copy file path" size="small" />
      {file.modeChanged ? (
        <span className={styles.mode} title={t('File mode changed from %{from} to %{to}', { from: file.aMode, to: file.bMode })}>
          {file.aMode} → {file.bMode}
        </span>
      ) : null}
      {file.lfs ? <Label variant="accent">LFS</Label> : null}
      {file.generated ? <Label variant="secondary">Generated</Label> : null}
      <span className={styles.spacer} />
      {counts ? (
        <span className={styles.stats}>
          <span className={styles.added}>+{counts.added}</span> <span className={styles.removed}>−{counts.removed}</span>
        </span>
      ) : null}
      {FileHeaderControls ? <FileHeaderControls file={file} onCollapse={(value) => actions.setCollapsed(file, value)} /> : null}
      {viewSha ? (
        // A plain link, not Primer's IconButton with its tooltip: headers mount while the list scrolls.
        <RouterLink className={styles.iconLink} to={urls.blob(refs.fullPath, viewSha, path)} aria-label={`${viewLabel}: ${path}`} title={viewLabel}>
          <LinkExternalIcon />
        </RouterLink>
      ) : null}
      <ActionMenu>
        <ActionMenu.Anchor>
          <IconButton icon={KebabHorizontalIcon} aria-label={`Options for ${path}`} variant="invisible" size="small" />
        </ActionMenu.Anchor>
        <ActionMenu.Overlay width="medium" align="end">
          <ActionList>
            {viewSha ? (
              <ActionList.LinkItem as={RouterLink} to={urls.blob(refs.fullPath, viewSha, path)}>
                {viewLabel}
              </ActionList.LinkItem>
            ) : null}
            {canEdit && editUrl ? (
              <>
                <ActionList.LinkItem as={RouterLink} to={editUrl}>
                  {t('Edit in single-file editor')}
                </ActionList.LinkItem>
                {/* Tributary has no Web IDE: the entry opens the editor it has, on the same branch and file. */}
                <ActionList.LinkItem as={RouterLink} to={editUrl}>
                  {t('Open in Web IDE')}
                </ActionList.LinkItem>
              </>
            ) : null}
            {canViewReplaced && refs.baseSha ? (
              <ActionList.LinkItem as={RouterLink} to={urls.blob(refs.fullPath, refs.baseSha, file.oldPath)}>
                {t('View replaced file @ %{commitSha}', { commitSha: refs.baseSha.slice(0, SHORT_SHA) })}
              </ActionList.LinkItem>
            ) : null}
            {FileMenuItems ? <FileMenuItems file={file} /> : null}
            {canToggleFullFile ? (
              <>
                <ActionList.Divider />
                <ActionList.Item onSelect={() => actions.setFullFile(file, !state.fullFile)}>
                  {state.fullFile ? t('Show changes only') : t('Show full file')}
                </ActionList.Item>
              </>
            ) : null}
          </ActionList>
        </ActionMenu.Overlay>
      </ActionMenu>
    </div>
  );
}
