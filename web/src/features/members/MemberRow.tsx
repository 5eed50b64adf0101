import { TrashIcon } from '@primer/octicons-react';
import { IconButton, Label, Select, Spinner, useConfirm } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { EntityAvatar } from '../../components/EntityAvatar';
import { TimeAgo } from '../../components/TimeAgo';
import { errorMessage } from '../../lib/api-error';
import type { Member } from '../../lib/gitlab-types';
import { roleName } from './access-levels';
import { memberKeys, removeMemberMutation, updateMemberMutation, type MemberSource } from './api';
import styles from './MembersPanel.module.css';

/** One member: who, their role (editable for managers), when added, and remove. */
export function MemberRow({
  source,
  member,
  isSelf,
  canManage,
  levels,
  resourceName,
}: {
  source: MemberSource;
  member: Member;
  isSelf: boolean;
  canManage: boolean;
  levels: number[];
  resourceName: string;
}) {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const invalidate = () => void queryClient.invalidateQueries({ queryKey: memberKeys.all(source) });
  const update = useMutation({ ...updateMemberMutation(source), onSuccess: invalidate });
  const remove = useMutation({ ...removeMemberMutation(source), onSuccess: invalidate });
  const failure = update.error ?? remove.error;
  const options = levels.includes(member.access_level) ? levels : [...levels, member.access_level].sort((a, b) => a - b);

  async function askAndRemove() {
    const confirmed = await confirm({
      title: isSelf ? 'Leave?' : 'Remove member',
      content: isSelf ? (
        <>
          Are you sure you want to leave <strong>{resourceName}</strong>?
        </>
      ) : (
        <>
          Are you sure you want to remove <strong>{member.name}</strong> from <strong>{resourceName}</strong>?
        </>
      ),
      confirmButtonContent: isSelf ? 'Leave' : 'Remove member',
      confirmButtonType: 'danger',
    });
    if (confirmed) remove.mutate(member.id);
  }

  return (
    <li className={styles.row}>
      <EntityAvatar name={member.name} id={member.id} src={member.avatar_url} size={32} square={false} />
      <div className={styles.who}>
        <div>
          <strong>{member.name}</strong> {isSelf ? <Label variant="accent">It's you</Label> : null}
          {member.state === 'blocked' ? <Label variant="danger">Blocked</Label> : null}
        </div>
        <div className="fgMuted">
          @{member.username}
          {member.created_at ? (
            <>
              {' '}
              · Given access <TimeAgo date={member.created_at} />
            </>
          ) : null}
          {member.expires_at ? <> · Expires {member.expires_at}</> : null}
        </div>
        {failure ? (
          <div className={styles.error} role="alert">
            {errorMessage(failure)}
          </div>
        ) : null}
      </div>
      {canManage ? (
        <>
          {update.isPending ? <Spinner size="small" srText="Saving" /> : null}
          <Select
            aria-label={`Access level for ${member.username}`}
            value={String(member.access_level)}
            disabled={update.isPending}
            onChange={(event) => update.mutate({ userId: member.id, accessLevel: Number(event.target.value) })}
          >
            {options.map((value) => (
              <Select.Option key={value} value={String(value)}>
                {roleName(value)}
              </Select.Option>
            ))}
          </Select>
          <IconButton
            icon={TrashIcon}
            variant="danger"
            size="small"
            aria-label={isSelf ? 'Leave' : `Remove ${member.username}`}
            loading={remove.isPending}
            onClick={() => void askAndRemove()}
          />
        </>
      ) : (
        <Label>{roleName(member.access_level)}</Label>
      )}
    </li>
  );
}
