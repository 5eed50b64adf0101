// features/abuse: what other areas and the app may use. Everything else in this folder is its own.
export { AbuseReportDrawer } from './AbuseReportDrawer';
export { abuseReportKeys, abuseReportListQuery, setAbuseReportStatusMutation, type AbuseReport } from './api';
