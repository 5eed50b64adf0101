import { ReportIcon } from '@primer/octicons-react';
import { Button, Label, PageHeader, SegmentedControl, Stack } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { ABUSE_CATEGORY_LABELS, t } from '@tributary/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { NotFoundPage } from '../../app/NotFoundPage';
import { EmptyState } from '../../components/EmptyState';
import { FormError } from '../../components/FormError';
import { PageError } from '../../components/PageError';
import { PaginationNav } from '../../components/PaginationNav';
import { formatDate } from '../../lib/time';
import { abuseReportKeys, abuseReportListQuery, setAbuseReportStatusMutation, type AbuseReport } from '../abuse';
import { useCurrentUser } from '../session';
import styles from './AdminUsersPage.module.css';
import { useDocumentTitle } from '../../components/useDocumentTitle';

function ReportRow({ report }: { report: AbuseReport }) {
  const client = useQueryClient();
  const change = useMutation({
    ...setAbuseReportStatusMutation(),
    onSuccess: () => void client.invalidateQueries({ queryKey: abuseReportKeys.all }),
  });
  return (
    <tr>
      <td>
        <strong>{report.user?.name ?? t('Ghost User')}</strong>
        <div className="fgMuted">@{report.user?.username ?? 'ghost'}</div>
      </td>
      <td>
        <Label>{report.category}</Label>
        <div className="fgMuted">{t(ABUSE_CATEGORY_LABELS[report.category])}</div>
      </td>
      <td>
        <div>{report.message}</div>
        {report.reported_from_url ? (
          <a href={report.reported_from_url} rel="noreferrer noopener">
            {t('Reported content')}
          </a>
        ) : null}
      </td>
      <td>
        @{report.reporter?.username ?? 'ghost'}
        <div className="fgMuted">{formatDate(report.created_at)}</div>
      </td>
      <td>
        <FormError error={change.error} title={t('The report could not be updated.')} />
        {report.status === 'open' ? (
          <Button size="small" loading={change.isPending} onClick={() => change.mutate({ id: report.id, status: 'closed' })}>
            {t('Resolve')}
          </Button>
        ) : (
          <>
            <div className="fgMuted">{report.resolved_at ? t('Closed %{date}', { date: formatDate(report.resolved_at) }) : t('Closed')}</div>
            <Button size="small" loading={change.isPending} onClick={() => change.mutate({ id: report.id, status: 'open' })}>
              {t('Reopen')}
            </Button>
          </>
        )}
      </td>
    </tr>
  );
}

/** `/admin/abuse_reports` (administrators only): open or closed reports, resolve or reopen. */
export function AdminAbuseReportsPage() {
  useDocumentTitle(['Abuse reports', 'Admin area']);
  const me = useCurrentUser();
  const [status, setStatus] = useState<'open' | 'closed'>('open');
  const [page, setPage] = useState(1);
  const reports = useQuery({ ...abuseReportListQuery({ status, page }), enabled: me.is_admin === true });
  if (!me.is_admin) return <NotFoundPage />;
  return (
    <Stack gap="normal">
      <PageHeader>
        <PageHeader.TitleArea>
          <PageHeader.Title as="h1">{t('Abuse reports')}</PageHeader.Title>
        </PageHeader.TitleArea>
      </PageHeader>
      <SegmentedControl aria-label={t('Report status')}>
        {(['open', 'closed'] as const).map((value) => (
          <SegmentedControl.Button key={value} selected={status === value} onClick={() => (setStatus(value), setPage(1))}>
            {value === 'open' ? t('Open') : t('Closed')}
          </SegmentedControl.Button>
        ))}
      </SegmentedControl>
      {reports.isPending ? (
        <SkeletonBox height="240px" />
      ) : reports.isError ? (
        <PageError title={t('The abuse reports could not be loaded.')} error={reports.error} onRetry={() => void reports.refetch()} />
      ) : reports.data.items.length === 0 ? (
        <EmptyState icon={ReportIcon} title={status === 'open' ? t('No open abuse reports') : t('No closed abuse reports')} />
      ) : (
        <>
          <div className={styles.wrap}>
            <table className={styles.table} aria-label={t('Abuse reports')}>
              <thead>
                <tr>
                  <th scope="col">{t('Reported user')}</th>
                  <th scope="col">{t('Category')}</th>
                  <th scope="col">{t('Comment')}</th>
                  <th scope="col">{t('Reported by')}</th>
                  <th scope="col">{t('Status')}</th>
                </tr>
              </thead>
              <tbody>
                {reports.data.items.map((report) => (
                  <ReportRow key={report.id} report={report} />
                ))}
              </tbody>
            </table>
          </div>
          <PaginationNav pageInfo={reports.data.pageInfo} onPageChange={setPage} />
        </>
      )}
    </Stack>
  );
}
