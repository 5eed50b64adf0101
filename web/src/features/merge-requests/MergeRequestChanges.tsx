import { Flash } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useMemo, useRef, type ComponentProps } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useWideLayout } from '../../app/layout-width';
import { PageError } from '../../components/PageError';
import { toDiffFile, type DiffFile } from '../../lib/diff-file';
import { comparisonParams, numberVersions, resolveComparison, type NumberedVersion } from '../../lib/diff-versions';
import type { MergeRequest, Project } from '../../lib/gitlab-types';
import { DiffViewer, type DiffLoadProgress, useEditRef } from '../diffs';
import { DiffNotesProvider, useDiffNotes, diffNoteSlots } from '../diff-notes';
import { DiffCoverageProvider, LineCoverage } from '../diff-coverage';
import { compareQuery, mergeRequestVersionQuery, mergeRequestVersionsQuery } from './api';
import { mergeRequestDiffPagesQuery, type DiffPage } from './diff-pages';
import { VersionPicker } from './VersionPicker';

const noop = () => {};

/** Diff comments, and the head pipeline's line coverage beside new line numbers. One object for the app's life. */
const changesSlots = { ...diffNoteSlots, LineCoverage };

/**
 * The diff viewer with diff comments in its slots (inside a DiffNotesProvider): lines, file headers,
 * options menus and images take comments, and files marked 'Viewed' start collapsed; new lines carry
 * their test coverage (inside a DiffCoverageProvider).
 */
function CommentedDiffViewer(props: Omit<ComponentProps<typeof DiffViewer>, 'slots' | 'isViewed'>) {
  const isViewed = useDiffNotes()?.isReviewed;
  return <DiffViewer {...props} slots={changesSlots} isViewed={isViewed} />;
}

/**
 * Pages of …/diffs as DiffFiles; each page converted once, so files keep their identity as
 * pages arrive. Pages after the first are taken in a deferred (interruptible) render, so
 * converting and laying out a new page never holds the page still for long.
 */
function usePagedFiles(pages: DiffPage[] | undefined): DiffFile[] {
  const deferred = useDeferredValue(pages);
  // The deferred pages only while they are the start of the current ones: the first page (and a new version's) shows at once.
  const shown = deferred && pages && deferred.length > 0 && deferred[0] === pages[0] ? deferred : pages;
  const cache = useRef(new WeakMap<DiffPage, DiffFile[]>());
  return useMemo(() => {
    if (!shown) return [];
    return shown.flatMap((page) => {
      let files = cache.current.get(page);
      if (!files) {
        files = page.items.map((entry, index) => toDiffFile(entry, page.offset + index));
        cache.current.set(page, files);
      }
      return files;
    });
  }, [shown]);
}

/**
 * The Changes tab: the latest version against the target branch by default, a page of files
 * at a time (…/diffs), or — chosen in the version dropdowns, kept in `diff_id` / `start_sha`
 * — an older version (…/versions/:id) or one version against another (compare of their heads).
 */
export function MergeRequestChanges({ project, mr }: { project: Project; mr: MergeRequest }) {
  useWideLayout();
  const [search, setSearch] = useSearchParams();
  const diffId = search.get('diff_id');
  const startSha = search.get('start_sha');
  const versions = useQuery(mergeRequestVersionsQuery(project.id, mr.iid));
  const numbered = useMemo(() => numberVersions(versions.data ?? []), [versions.data]);
  const wantsVersion = diffId !== null || startSha !== null;
  const resolved = wantsVersion ? resolveComparison(numbered, { diffId, startSha }) : null;
  const kind = resolved?.comparison.kind ?? 'latest';
  const headSha = mr.diff_refs?.head_sha ?? '';

  const latest = useInfiniteQuery({ ...mergeRequestDiffPagesQuery(project.id, mr.iid, headSha), enabled: kind === 'latest' && headSha !== '' && !(wantsVersion && versions.isPending) });
  const version = useQuery({ ...mergeRequestVersionQuery(project.id, mr.iid, resolved?.comparison.head.id ?? 0), enabled: kind === 'version' });
  const between = useQuery({
    ...compareQuery(project.id, resolved?.baseSha ?? '', resolved?.headSha ?? '', { straight: true }),
    enabled: kind === 'between',
  });

  // Load the remaining pages one after another, while the first ones are already on screen.
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = latest;
  useEffect(() => {
    if (kind === 'latest' && hasNextPage && !isFetchingNextPage && !isFetchNextPageError) void fetchNextPage();
  }, [kind, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);

  const latestFiles = usePagedFiles(latest.data?.pages);
  const versionFiles = useMemo(() => (version.data?.diffs ?? []).map(toDiffFile), [version.data]);
  const betweenFiles = useMemo(() => (between.data?.diffs ?? []).map(toDiffFile), [between.data]);

  // Edits go to the source branch of an open merge request in this project, only from the latest version, and only for those who may push to it.
  const editRef = useEditRef(project.id, mr.state === 'opened' && kind === 'latest' && mr.source_project_id === mr.target_project_id ? mr.source_branch : null);
  const refs = useMemo(
    () => ({
      projectId: project.id,
      fullPath: project.path_with_namespace,
      baseSha: resolved ? resolved.baseSha : (mr.diff_refs?.base_sha ?? mr.diff_refs?.start_sha ?? null),
      headSha: resolved ? resolved.headSha : (mr.diff_refs?.head_sha ?? null),
      editRef,
      mergeRequestIid: mr.iid,
      // the version whose files are shown, whose collapsed files' patches the server keeps (when comparing two versions, the compare gives them)
      versionId: kind === 'version' ? (resolved?.comparison.head.id ?? null) : kind === 'latest' ? (numbered.find((v) => v.head_commit_sha === headSha)?.id ?? null) : null,
    }),
    [project.id, project.path_with_namespace, resolved, mr, editRef, kind, numbered, headSha],
  );

  function choose(head: NumberedVersion, start: NumberedVersion | null) {
    const next = new URLSearchParams(search);
    next.delete('diff_id');
    next.delete('start_sha');
    for (const [key, value] of Object.entries(comparisonParams(head, start))) next.set(key, value);
    setSearch(next);
  }

  if (!mr.diff_refs) {
    return <Flash>This merge request has no changes yet: its source branch has no commits that {mr.target_branch} does not have.</Flash>;
  }
  if (wantsVersion && versions.isPending) return <SkeletonBox height="400px" />;
  if (wantsVersion && versions.isError) return <PageError title="The versions could not be loaded." error={versions.error} onRetry={() => void versions.refetch()} />;

  const current = resolved?.comparison.head ?? numbered[0];
  const start = resolved?.comparison.kind === 'between' ? resolved.comparison.start : null;
  const picker = current && numbered.length > 0 ? <VersionPicker versions={numbered} head={current} start={start} targetBranch={mr.target_branch} onChange={choose} /> : null;

  let files: DiffFile[];
  let progress: DiffLoadProgress;
  let pending: boolean;
  let firstError: unknown;
  let retry: () => void;
  if (kind === 'latest') {
    files = latestFiles;
    pending = latest.isPending;
    firstError = latest.isError && !latest.data ? latest.error : null;
    retry = () => void latest.refetch();
    progress = {
      loaded: files.length,
      total: latest.data?.pages[0]?.pageInfo.total ?? null,
      // Done once the last page has also been rendered (later pages render deferred).
      done: !latest.hasNextPage && files.length === (latest.data?.pages.reduce((sum, page) => sum + page.items.length, 0) ?? 0),
      error: latest.isFetchNextPageError ? latest.error : null,
      retry: () => void latest.fetchNextPage(),
    };
  } else {
    const query = kind === 'version' ? version : between;
    files = kind === 'version' ? versionFiles : betweenFiles;
    pending = query.isPending;
    firstError = query.error;
    retry = () => void query.refetch();
    progress = { loaded: files.length, total: files.length, done: true, error: null, retry: noop };
  }

  return (
    <>
      {resolved?.fellBack ? <Flash variant="warning">The version in the address does not exist; showing the latest version instead.</Flash> : null}
      {firstError ? (
        <PageError title="The changes could not be loaded." error={firstError} onRetry={retry} />
      ) : pending ? (
        <div role="status" aria-label="Loading changes">
          <SkeletonBox height="44px" />
          <SkeletonBox height="400px" />
        </div>
      ) : (
        // Diff comments are written on the latest version (the one the merge request's diff_refs name).
        <DiffNotesProvider project={project} mr={mr} files={files} commentable={kind === 'latest'}>
          <DiffCoverageProvider fullPath={project.path_with_namespace} iid={mr.iid} enabled={kind === 'latest'}>
            <CommentedDiffViewer files={files} refs={refs} progress={progress} toolbar={picker} emptyTitle="No changes" emptyDescription="The versions compared have the same content." />
          </DiffCoverageProvider>
        </DiffNotesProvider>
      )}
    </>
  );
}
