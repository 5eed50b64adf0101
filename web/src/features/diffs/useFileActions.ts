import { useQueryClient } from '@tanstack/react-query';
import { t } from '@tributary/contracts/i18n';
import { useMemo, useRef, type Dispatch } from 'react';
import { errorMessage } from '../../lib/api-error';
import type { DiffFile } from '../../lib/diff-file';
import { comparedFilePatchQuery, rawFileQuery, versionFilePatchQuery, type RawFile } from './api';
import { loadCollapsedFile } from './collapsed-file';
import type { DiffRefs, FileActions } from './DiffContext';
import { INITIAL_FILE_STATE, type FileAction, type FileStates } from './file-states';

/** The renamed-file viewer's failure. */
export const RENAMED_FILE_ERROR = 'Unable to load file contents. Try again later.';

/**
 * The reader's actions on files, and the blob fetches behind them: the new file for
 * expanding context, showing the full file or a renamed file's contents; both sides for a
 * file the server sent collapsed without its patch.
 */
export function useFileActions(refs: DiffRefs, states: FileStates, dispatch: Dispatch<FileAction>): FileActions {
  const queryClient = useQueryClient();
  // Read at call time, so the actions (and the context rows read them from) stay the same object.
  const statesRef = useRef(states);
  statesRef.current = states;

  return useMemo(() => {
    const fetchSide = (sha: string | null, path: string): Promise<RawFile | null> =>
      sha ? queryClient.fetchQuery(rawFileQuery(refs.projectId, sha, path)) : Promise.resolve(null);

    /** Loads the new side once; returns whether a load was started. */
    function ensureNewText(file: DiffFile, failure?: string) {
      const state = statesRef.current[file.id] ?? INITIAL_FILE_STATE;
      if (state.texts?.new || state.load === 'loading') return;
      dispatch({ type: 'load-start', id: file.id });
      fetchSide(refs.headSha, file.newPath).then(
        (raw) => dispatch({ type: 'load-done', id: file.id, texts: { old: state.texts?.old ?? null, new: raw?.lines ?? [] } }),
        (error: unknown) => dispatch({ type: 'load-error', id: file.id, error: failure ?? errorMessage(error) }),
      );
    }

    return {
      toggleCollapsed: (file) => dispatch({ type: 'toggle-collapsed', id: file.id, startsCollapsed: file.startsCollapsed }),
      setCollapsed: (file, collapsed) => dispatch({ type: 'set-collapsed', id: file.id, collapsed }),
      setImageMode: (file, mode) => dispatch({ type: 'image-mode', id: file.id, mode }),
      expandGap(file, gap, direction) {
        dispatch({ type: 'expand-gap', id: file.id, gap, direction });
        ensureNewText(file);
      },
      setFullFile(file, on) {
        dispatch({ type: 'full-file', id: file.id, on });
        if (on) ensureNewText(file);
      },
      showContents(file) {
        dispatch({ type: 'show-contents', id: file.id });
        ensureNewText(file, t(RENAMED_FILE_ERROR));
      },
      expandCollapsed(file) {
        if (file.viewer !== 'collapsed') {
          dispatch({ type: 'toggle-collapsed', id: file.id, startsCollapsed: file.startsCollapsed });
          return;
        }
        // The server left the patch out: ask it for git's patch of this file (loadCollapsedFile).
        dispatch({ type: 'load-start', id: file.id });
        loadCollapsedFile(file, refs, {
          side: fetchSide,
          versionPatch: (iid, versionId, path) => queryClient.fetchQuery(versionFilePatchQuery(refs.projectId, iid, versionId, path)),
          comparePatch: (from, to, oldPath, newPath) => queryClient.fetchQuery(comparedFilePatchQuery(refs.projectId, from, to, oldPath, newPath)),
        }).then(
          ({ texts, computed, binary }) => dispatch({ type: 'load-done', id: file.id, texts, computed, binary }),
          (error: unknown) => dispatch({ type: 'load-error', id: file.id, error: errorMessage(error) }),
        );
      },
      dismissError: (file) => dispatch({ type: 'dismiss-error', id: file.id }),
    };
  }, [queryClient, refs, dispatch]);
}
