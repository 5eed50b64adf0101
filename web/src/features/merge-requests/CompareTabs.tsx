import { GitCommitIcon } from '@primer/octicons-react';
import { UnderlineNav } from '@primer/react';
import { useMemo, useState } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { toDiffFile } from '../../lib/diff-file';
import type { Comparison } from '../../lib/gitlab-types';
import { CommitRow } from '../commits';
import { DiffViewer, useEditRef } from '../diffs';
import styles from './MergeRequestPage.module.css';

const noop = () => {};

/** What a new merge request would bring: its commits and its changes, from the compare call. */
export function CompareTabs({ comparison, fullPath, projectId, sourceBranch }: { comparison: Comparison; fullPath: string; projectId: number; sourceBranch: string }) {
  const [tab, setTab] = useState<'commits' | 'changes'>('commits');
  const files = useMemo(() => comparison.diffs.map(toDiffFile), [comparison.diffs]);
  // The oldest commit's first parent is where the branch left the target: the diff's old side.
  const baseSha = comparison.commits[0]?.parent_ids[0] ?? null;
  const editRef = useEditRef(projectId, sourceBranch);
  const refs = useMemo(() => ({ projectId, fullPath, baseSha, headSha: comparison.commit?.id ?? null, editRef }), [projectId, fullPath, baseSha, comparison.commit, editRef]);
  return (
    <section className={styles.compare} aria-label="Changes in this merge request">
      <UnderlineNav aria-label="Merge request contents">
        <UnderlineNav.Item as="button" aria-current={tab === 'commits' ? 'page' : undefined} counter={comparison.commits.length} onSelect={() => setTab('commits')}>
          Commits
        </UnderlineNav.Item>
        <UnderlineNav.Item as="button" aria-current={tab === 'changes' ? 'page' : undefined} counter={files.length} onSelect={() => setTab('changes')}>
          Changes
        </UnderlineNav.Item>
      </UnderlineNav>
      {tab === 'commits' ? (
        comparison.commits.length === 0 ? (
          <EmptyState icon={GitCommitIcon} title="No commits" description="The source branch has no commits that the target branch does not have." />
        ) : (
          <ol className={styles.commitList}>
            {[...comparison.commits].reverse().map((commit) => (
              <CommitRow key={commit.id} commit={commit} fullPath={fullPath} />
            ))}
          </ol>
        )
      ) : (
        <DiffViewer files={files} refs={refs} progress={{ loaded: files.length, total: files.length, done: true, error: null, retry: noop }} />
      )}
    </section>
  );
}
