import { ActionList } from '@primer/react';
import { Link as RouterLink } from 'react-router-dom';
import { EntityAvatar } from '../../components/EntityAvatar';
import { VisibilityIcon } from '../../components/VisibilityIcon';
import type { Group } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { projectListStyles as styles } from '../projects';

export function GroupList({ groups, label, fullNames = true }: { groups: Group[]; label: string; fullNames?: boolean }) {
  return (
    <ActionList aria-label={label} showDividers className={styles.list}>
      {groups.map((group) => (
        <ActionList.LinkItem key={group.id} as={RouterLink} to={urls.group(group.full_path)}>
          <ActionList.LeadingVisual>
            <EntityAvatar name={group.name} id={group.id} src={group.avatar_url} size={32} />
          </ActionList.LeadingVisual>
          <span className={styles.name}>{fullNames ? group.full_name : group.name}</span> <VisibilityIcon visibility={group.visibility} />
          {group.description ? <ActionList.Description variant="block">{group.description}</ActionList.Description> : null}
        </ActionList.LinkItem>
      ))}
    </ActionList>
  );
}
