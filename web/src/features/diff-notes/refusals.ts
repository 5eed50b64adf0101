/**
 * Why a diff line cannot take a comment (GitLab's addCommentTooltip and
 * fileSymlinkInformation): the tooltip of the line's comment button. Pure.
 */
import { SYMLINK_MODE, type DiffFile } from '../../lib/diff-file';

export const COMMENT_LINE_TOOLTIP = 'Add a comment to this line or drag for multiple lines';
export const SYMLINK_REPLACES_FILE = 'Commenting on symbolic links that replace or are replaced by files is not supported';
export const FILE_REPLACES_SYMLINK = 'Commenting on files that replace or are replaced by symbolic links is not supported';
export const ONLY_MOVED = 'Commenting on files that are only moved or renamed is not supported';
export const LINE_NOT_SUPPORTED = 'Commenting on this line is not supported';

type RefusalFile = Pick<DiffFile, 'oldPath' | 'newPath' | 'aMode' | 'bMode' | 'renamedFile' | 'added' | 'removed' | 'viewer' | 'deletedFile'>;

const pathOf = (file: RefusalFile) => (file.deletedFile ? file.oldPath : file.newPath);

/**
 * A file replaced by a symbolic link (or the reverse) comes as two entries of one path: the
 * removed half and the added half. Lines of either half cannot be commented on; which text
 * shows depends on whether this half is the link or the file.
 */
export function symlinkRefusal(file: RefusalFile, files: readonly RefusalFile[]): string | null {
  // One entry that changed type (git's `T`): it was a file and is now a link, or the reverse.
  const present = (mode: string) => mode !== '' && !/^0+$/.test(mode);
  if (present(file.aMode) && present(file.bMode) && (file.aMode === SYMLINK_MODE) !== (file.bMode === SYMLINK_MODE)) return SYMLINK_REPLACES_FILE;
  const path = pathOf(file);
  const halves = files.filter((other) => pathOf(other) === path);
  if (halves.length < 2) return null;
  if (!halves.some((half) => half.aMode === SYMLINK_MODE || half.bMode === SYMLINK_MODE)) return null;
  return file.aMode === SYMLINK_MODE || file.bMode === SYMLINK_MODE ? SYMLINK_REPLACES_FILE : FILE_REPLACES_SYMLINK;
}

/**
 * The refusal for every line of a file, or null when its lines take comments. `computed`:
 * the lines were diffed in the browser (the server sent none), so the server has no line
 * codes for them.
 */
export function lineRefusal(file: RefusalFile, files: readonly RefusalFile[], options: { computed?: boolean; wholeFileOfRename?: boolean } = {}): string | null {
  const symlink = symlinkRefusal(file, files);
  if (symlink) return symlink;
  if (options.wholeFileOfRename || (file.renamedFile && file.added === 0 && file.removed === 0)) return ONLY_MOVED;
  if (file.viewer === 'too-large' || options.computed) return LINE_NOT_SUPPORTED;
  return null;
}
