import { Breadcrumbs } from '@primer/react';
import { Link as RouterLink } from 'react-router-dom';
import { pathCrumbs } from '../../lib/tree';
import { urls } from '../../lib/routes';

/**
 * `parent / child / …` links for a group full path. Parents show their paths (the
 * group entity names only itself); `trailing` adds the current sub-page.
 */
export function GroupBreadcrumbs({ fullPath, name, trailing }: { fullPath: string; name?: string; trailing?: { label: string; to: string } }) {
  const crumbs = pathCrumbs(fullPath);
  // Breadcrumbs puts a separator after every child but the last, so no null children here.
  const items = crumbs.map((crumb, index) => {
    const last = index === crumbs.length - 1;
    return (
      <Breadcrumbs.Item key={crumb.path} as={RouterLink} to={urls.group(crumb.path)} selected={!trailing && last}>
        {last && name ? name : crumb.name}
      </Breadcrumbs.Item>
    );
  });
  if (trailing) {
    items.push(
      <Breadcrumbs.Item key="trailing" as={RouterLink} to={trailing.to} selected>
        {trailing.label}
      </Breadcrumbs.Item>,
    );
  }
  return <Breadcrumbs>{items}</Breadcrumbs>;
}
