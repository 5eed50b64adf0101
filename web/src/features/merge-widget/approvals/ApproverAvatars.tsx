import { Avatar, Tooltip } from '@primer/react';
import type { WidgetUser } from '@tributary/contracts/merge-widget';
import styles from './Approvals.module.css';

/** Approvers as 24px avatars (initials without a picture), each named for screen readers and on hover. */
export function ApproverAvatars({ users, label }: { users: readonly WidgetUser[]; label: string }) {
  if (users.length === 0) return null;
  return (
    <ul className={styles.avatars} aria-label={label} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {users.map((user) => (
        <li key={user.id}>
          <Tooltip text={user.name} direction="n">
            <a href={user.webUrl} aria-label={user.name}>
              {user.avatarUrl ? <Avatar src={user.avatarUrl} size={24} alt="" /> : <span aria-hidden="true" className={styles.initials}>{user.name.charAt(0).toUpperCase()}</span>}
            </a>
          </Tooltip>
        </li>
      ))}
    </ul>
  );
}
