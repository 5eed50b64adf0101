import { Button, Flash } from '@primer/react';
import { t } from '@tributary/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../lib/api-error';
import { deleteDescriptionVersionMutation, descriptionDiffQuery, descriptionVersionKeys, descriptionVersionsQuery } from './api';
import styles from './DescriptionVersions.module.css';

/**
 * Under a "changed the description" system note: "Compare with previous version" toggles the
 * word diff (fetched once), and the version's author or a Maintainer may delete the version
 * (soft: the note stays, the text goes).
 */
export function DescriptionVersionCompare({ projectId, iid, noteId }: { projectId: number; iid: number; noteId: number }) {
  const client = useQueryClient();
  const versions = useQuery(descriptionVersionsQuery(projectId, iid));
  const version = versions.data?.find((v) => v.note_id === noteId);
  // a note newer than the cached list (the description was just edited): fetch the list once more
  const refetched = useRef(false);
  useEffect(() => {
    if (versions.data && !version && !refetched.current) {
      refetched.current = true;
      void versions.refetch();
    }
  // eslint-disable-next-line react-hooks/exhaustive-deps -- versions.refetch is stable; the list and the match are what change
  }, [versions.data, version]);
  const [open, setOpen] = useState(false);
  const diff = useQuery({ ...descriptionDiffQuery(projectId, iid, version?.id ?? 0), enabled: open && version !== undefined && !version.deleted });
  const remove = useMutation({
    ...deleteDescriptionVersionMutation(projectId, iid),
    onSuccess: () => {
      setOpen(false);
      void client.invalidateQueries({ queryKey: descriptionVersionKeys.list(projectId, iid) });
    },
  });
  if (!version) return null;
  if (version.deleted) return <p className={`fgMuted ${styles.deleted}`}>{t('Deleted')}</p>;
  return (
    <div className={styles.compare}>
      <Button size="small" variant="invisible" aria-expanded={open} onClick={() => setOpen(!open)}>
        {t('Compare with previous version')}
      </Button>
      {open ? (
        <div className={styles.panel}>
          {diff.isPending ? (
            <span className="fgMuted">{t('Loading…')}</span>
          ) : diff.isError ? (
            <Flash variant="danger">{errorMessage(diff.error)}</Flash>
          ) : (
            <pre className={styles.diff} aria-label={t('Description changes')}>
              {diff.data.diff.map((segment, index) =>
                segment.type === 'added' ? (
                  <ins key={index}>{segment.text}</ins>
                ) : segment.type === 'removed' ? (
                  <del key={index}>{segment.text}</del>
                ) : (
                  <span key={index}>{segment.text}</span>
                ),
              )}
            </pre>
          )}
          {version.can_delete ? (
            <Button size="small" variant="danger" loading={remove.isPending} onClick={() => remove.mutate(version.id)}>
              {t('Delete')}
            </Button>
          ) : null}
          {remove.isError ? <Flash variant="danger">{errorMessage(remove.error)}</Flash> : null}
        </div>
      ) : null}
    </div>
  );
}
