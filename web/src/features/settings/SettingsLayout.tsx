import { Heading, NavList, Stack } from '@primer/react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import styles from './Settings.module.css';

export interface SettingsNavItem {
  label: string;
  to: string;
  current: boolean;
}

/** A settings page: the settings pages of the project or group on the left, the page's sections on the right. */
export function SettingsLayout({ title, nav, navLabel, children }: { title: string; nav: SettingsNavItem[]; navLabel: string; children: ReactNode }) {
  return (
    <div className={styles.layout}>
      <NavList aria-label={navLabel}>
        {nav.map((item) => (
          <NavList.Item key={item.to} as={RouterLink} to={item.to} aria-current={item.current ? 'page' : undefined}>
            {item.label}
          </NavList.Item>
        ))}
      </NavList>
      <Stack gap="none">
        <Heading as="h2" variant="medium">
          {title}
        </Heading>
        {children}
      </Stack>
    </div>
  );
}
