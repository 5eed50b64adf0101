import type { Runner } from './api';

/** GitLab's status badge texts, and the Primer Label variant for each. */
export const STATUS_LABELS: Record<Runner['status'], { text: string; variant: 'success' | 'secondary' | 'attention' | 'severe' }> = {
  online: { text: 'Online', variant: 'success' },
  offline: { text: 'Offline', variant: 'secondary' },
  never_contacted: { text: 'Never contacted', variant: 'secondary' },
  stale: { text: 'Stale', variant: 'severe' },
  paused: { text: 'Paused', variant: 'attention' },
};

export const TYPE_LABELS: Record<Runner['runner_type'], string> = { instance_type: 'Instance', group_type: 'Group', project_type: 'Project' };

/** A runner's name in a list: its description, or `#id` when it has none (GitLab shows the short token there). */
export function runnerName(runner: Pick<Runner, 'id' | 'description'>): string {
  return runner.description?.trim() ? runner.description : `#${runner.id}`;
}

/** Comma- or space-separated tags, trimmed, without duplicates. */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(/[,\s]+/).map((tag) => tag.trim()).filter(Boolean))];
}

/** The commands that start a runner with a new token: the stock gitlab-runner, or Tributary's own. */
export function registerCommands(url: string, token: string): { label: string; command: string }[] {
  return [
    { label: 'gitlab-runner', command: `gitlab-runner register --url ${url} --token ${token}` },
    { label: 'Tributary runner', command: `npx tributary runner --url ${url} --token ${token}` },
  ];
}
