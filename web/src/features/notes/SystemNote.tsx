import {
  CommentIcon,
  GitBranchIcon,
  GitCommitIcon,
  GitMergeIcon,
  GitPullRequestClosedIcon,
  GitPullRequestDraftIcon,
  GitPullRequestIcon,
  InfoIcon,
  PencilIcon,
  PersonIcon,
  CheckIcon,
  type Icon,
} from '@primer/octicons-react';
import { Button } from '@primer/react';
import { t } from '@tributary/contracts';
import { useState } from 'react';
import { TimeAgo } from '../../components/TimeAgo';
import { MarkdownBody } from '../markdown';
import { DescriptionVersionCompare } from '../description-versions';
import { commitList, COMMIT_LIST_COLLAPSE_ABOVE, systemNoteIcon, type SystemNoteIcon } from './activity';
import { useNotesContext } from './NotesContext';
import styles from './Notes.module.css';
import type { NoteEntity } from './types';

const ICONS: Record<SystemNoteIcon, Icon> = {
  commit: GitCommitIcon,
  merge: GitMergeIcon,
  close: GitPullRequestClosedIcon,
  reopen: GitPullRequestIcon,
  branch: GitBranchIcon,
  pencil: PencilIcon,
  draft: GitPullRequestDraftIcon,
  check: CheckIcon,
  comment: CommentIcon,
  info: InfoIcon,
  person: PersonIcon,
};

/** A history entry: icon, who, what (Markdown), when; a commit list above 3 items collapses. */
export function SystemNote({ note }: { note: NoteEntity }) {
  const ctx = useNotesContext();
  const Glyph = ICONS[systemNoteIcon(note.body)];
  const list = commitList(note.body);
  const [expanded, setExpanded] = useState(false);
  const collapsible = list !== null && list.items.length > COMMIT_LIST_COLLAPSE_ABOVE;
  const shown = list === null ? [] : collapsible && !expanded ? list.items.slice(0, COMMIT_LIST_COLLAPSE_ABOVE) : list.items;
  return (
    <div className={styles.systemNote} id={`note_${note.id}`} data-note-id={note.id}>
      <span className={styles.systemIcon} aria-hidden="true">
        <Glyph size={16} />
      </span>
      <div className={styles.systemText}>
        <div className={styles.systemLine}>
          <strong>{note.author?.name ?? t('Ghost User')}</strong>
          <MarkdownBody text={list ? list.before : note.body} project={ctx.target.projectId} />
          <a href={`#note_${note.id}`} className={styles.time}>
            <TimeAgo date={note.created_at} />
          </a>
        </div>
        {list ? (
          <>
            <ul className={styles.commitList} aria-label={t('Commits')}>
              {shown.map((item, index) => (
                <li key={index}>{item}</li>
              ))}
            </ul>
            {collapsible ? (
              <Button size="small" variant="invisible" onClick={() => setExpanded(!expanded)} aria-expanded={expanded}>
                {t('Toggle commit list')}
              </Button>
            ) : null}
            {list.after ? <MarkdownBody text={list.after} project={ctx.target.projectId} /> : null}
          </>
        ) : null}
        {note.body === 'changed the description' ? <DescriptionVersionCompare projectId={ctx.target.projectId} iid={ctx.target.iid} noteId={note.id} /> : null}
      </div>
    </div>
  );
}
