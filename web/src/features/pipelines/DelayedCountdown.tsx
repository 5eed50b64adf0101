import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { graphqlRequest } from '../merge-widget';

/** GitLab's scheduled job countdown ticks once a second. */
export const COUNTDOWN_TICK_MS = 1000;

/** Time left until `scheduledAt` as GitLab shows it, HH:MM:SS (hours beyond 24 as they are), never below zero. Pure. */
export function remainingTime(scheduledAt: string, now: number): string {
  const seconds = Math.max(0, Math.floor((Date.parse(scheduledAt) - now) / 1000));
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
}

const SCHEDULED_AT_QUERY = `query scheduledJob($fullPath: ID!, $id: JobID!) { project(fullPath: $fullPath) { job(id: $id) { scheduledAt } } }`;

/**
 * The countdown of a delayed job (`when: delayed`) on its card, updated every second: the time is
 * GraphQL's `CiJob.scheduledAt`, as GitLab's graph reads it (the REST job entity has none).
 */
export function DelayedCountdown({ fullPath, jobId, name }: { fullPath: string; jobId: number; name: string }) {
  const scheduled = useQuery({
    queryKey: ['jobs', jobId, 'scheduledAt'],
    queryFn: async ({ signal }) => {
      const { data } = await graphqlRequest<{ project: { job: { scheduledAt: string | null } | null } | null }>(SCHEDULED_AT_QUERY, { fullPath, id: `gid://gitlab/Ci::Build/${jobId}` }, signal);
      return data.project?.job?.scheduledAt ?? null;
    },
    staleTime: Infinity,
  });
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), COUNTDOWN_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  if (!scheduled.data) return null;
  const left = remainingTime(scheduled.data, now);
  return (
    <span className="fgColor-muted" style={{ fontVariantNumeric: 'tabular-nums', fontSize: 12 }} title={`${name} - delayed manual action (${left})`} aria-label={`Runs in ${left}`} role="timer">
      {left}
    </span>
  );
}
