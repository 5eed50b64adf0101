import { Suspense, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { PageLoading } from '../components/PageLoading';
import { AppHeader } from './AppHeader';
import styles from './AppLayout.module.css';
import { WideLayoutContext } from './layout-width';

/** Every signed-in page: the top bar, then the page, lazily loaded. */
export function AppLayout() {
  const [wide, setWide] = useState(false);
  return (
    <div className={styles.shell}>
      <a href="#main" className={styles.skipLink}>
        Skip to main content
      </a>
      <AppHeader />
      <WideLayoutContext.Provider value={setWide}>
        <main id="main" className={wide ? `${styles.main} ${styles.wide}` : styles.main} tabIndex={-1}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </main>
      </WideLayoutContext.Provider>
    </div>
  );
}
