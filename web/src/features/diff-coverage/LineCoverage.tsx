import { useQuery } from '@tanstack/react-query';
import { createContext, useContext, type ReactNode } from 'react';
import type { DiffFile } from '../../lib/diff-file';
import type { LineRow } from '../../lib/diff-rows';
import { coverageReportsQuery, coverageTitle, lineCoverage, type CoverageFiles } from './coverage';
import styles from './LineCoverage.module.css';

const CoverageContext = createContext<CoverageFiles | undefined>(undefined);

/** Reads the merge request's line coverage for the LineCoverage marks inside it (only when `enabled`: the latest version). */
export function DiffCoverageProvider({ fullPath, iid, enabled, children }: { fullPath: string; iid: number; enabled: boolean; children: ReactNode }) {
  const report = useQuery({ ...coverageReportsQuery(fullPath, iid), enabled });
  return <CoverageContext.Provider value={enabled ? (report.data ?? undefined) : undefined}>{children}</CoverageContext.Provider>;
}

/**
 * The diff viewer's LineCoverage slot: a bar at the edge of a new line's number, green when the
 * head pipeline's Cobertura report ran the line, red when it did not, nothing when it does not know.
 */
export function LineCoverage({ file, row }: { file: DiffFile; row: LineRow }) {
  const report = useContext(CoverageContext);
  if (row.type === 'delete' || file.deletedFile) return null;
  const state = lineCoverage(report, file.newPath, row.newLine);
  if (!state) return null;
  const title = coverageTitle(state);
  return <span className={`${styles.mark} ${state.covered ? styles.covered : styles.uncovered}`} title={title} role="img" aria-label={title} data-testid="line-coverage" />;
}
