import { TriangleDownIcon } from '@primer/octicons-react';
import { ActionList, ActionMenu } from '@primer/react';
import { TimeAgo } from '../../components/TimeAgo';
import { baseLabel, startCandidates, versionLabel, type NumberedVersion } from '../../lib/diff-versions';
import styles from './MergeRequestPage.module.css';

const SHORT_SHA = 8;

/** "Compare <version> and <older version or base>", GitLab's two version dropdowns. */
export function VersionPicker({ versions, head, start, targetBranch, onChange }: {
  versions: NumberedVersion[];
  head: NumberedVersion;
  start: NumberedVersion | null;
  targetBranch: string;
  onChange: (head: NumberedVersion, start: NumberedVersion | null) => void;
}) {
  const older = startCandidates(versions, head);
  return (
    <span className={styles.versions}>
      <span>Compare</span>
      <ActionMenu>
        <ActionMenu.Button size="small" trailingAction={TriangleDownIcon} aria-label={`Version shown: ${versionLabel(head)}`}>
          {versionLabel(head)}
        </ActionMenu.Button>
        <ActionMenu.Overlay width="medium">
          <ActionList selectionVariant="single" aria-label="Versions">
            {versions.map((version) => (
              <ActionList.Item key={version.id} selected={version.id === head.id} onSelect={() => onChange(version, start && start.number < version.number ? start : null)}>
                {versionLabel(version)}
                <ActionList.Description variant="block">
                  <code>{version.head_commit_sha.slice(0, SHORT_SHA)}</code> · <TimeAgo date={version.created_at} />
                </ActionList.Description>
              </ActionList.Item>
            ))}
          </ActionList>
        </ActionMenu.Overlay>
      </ActionMenu>
      <span>and</span>
      <ActionMenu>
        <ActionMenu.Button size="small" trailingAction={TriangleDownIcon} aria-label={`Compared with: ${start ? versionLabel(start) : baseLabel(targetBranch)}`}>
          {start ? versionLabel(start) : baseLabel(targetBranch)}
        </ActionMenu.Button>
        <ActionMenu.Overlay width="medium">
          <ActionList selectionVariant="single" aria-label="Compare with">
            <ActionList.Item selected={start === null} onSelect={() => onChange(head, null)}>
              {baseLabel(targetBranch)}
            </ActionList.Item>
            {older.map((version) => (
              <ActionList.Item key={version.id} selected={start?.id === version.id} onSelect={() => onChange(head, version)}>
                {versionLabel(version)}
                <ActionList.Description variant="block">
                  <code>{version.head_commit_sha.slice(0, SHORT_SHA)}</code> · <TimeAgo date={version.created_at} />
                </ActionList.Description>
              </ActionList.Item>
            ))}
          </ActionList>
        </ActionMenu.Overlay>
      </ActionMenu>
    </span>
  );
}
