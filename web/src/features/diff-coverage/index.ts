// features/diff-coverage: the Changes tab's line coverage marks (the diff viewer's LineCoverage slot).
export { DiffCoverageProvider, LineCoverage } from './LineCoverage';
