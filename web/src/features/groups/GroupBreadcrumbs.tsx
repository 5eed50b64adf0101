import { Breadcrumbs } from '@primer/react';
import { Link as RouterLink } from 'react-router-dom';
import { pathCrumbs } from '../../lib/tree';
import { urls } from '../../lib/routes';

/** `parent / child / …` links for a namespace full path; the last crumb can be the current page. */
export function GroupBreadcrumbs({ fullPath, trailing }: { fullPath: string; trailing?: { label: string; to: string } }) {
  const crumbs = pathCrumbs(fullPath);
  return (
    <Breadcrumbs>
      {crumbs.map((crumb, index) => (
        <Breadcrumbs.Item
          key={crumb.path}
          as={RouterLink}
          to={urls.group(crumb.path)}
          selected={!trailing && index === crumbs.length - 1}
        >
          {crumb.name}
        </Breadcrumbs.Item>
      ))}
      {trailing ? (
        <Breadcrumbs.Item as={RouterLink} to={trailing.to} selected>
          {trailing.label}
        </Breadcrumbs.Item>
      ) : null}
    </Breadcrumbs>
  );
}
