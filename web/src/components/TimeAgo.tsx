import { formatDateTime, formatRelativeTime } from '../lib/time';

/** "3 days ago" in a <time> element whose tooltip is the full date. */
export function TimeAgo({ date }: { date: string | null | undefined }) {
  if (!date) return null;
  return (
    <time dateTime={date} title={formatDateTime(date)}>
      {formatRelativeTime(date)}
    </time>
  );
}
