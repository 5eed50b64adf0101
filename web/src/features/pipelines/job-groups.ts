import { compositeStatus, groupJobs, type CiStatus } from '@tributary/contracts/ci-jobs';
import type { DagPipeline, DetailedStatus, Job } from './api';
import { fallbackStatus } from './StatusBadge';

/** One card of the pipeline graph: a job, or the jobs `parallel:` made of one (`rspec 1/3`, `rspec 2/3`…). */
export interface JobGroupView {
  name: string;
  jobs: Job[];
  status: DetailedStatus;
}

export interface StageView {
  name: string;
  groups: JobGroupView[];
}

/**
 * A group's status as GitLab shows it: a lone job's own; for several, the composite status of
 * their jobs (a failure allowed to fail is GitLab's "passed with warnings"), with no link and no
 * action of its own (those are the jobs', in its dropdown).
 */
export function groupStatus(jobs: readonly Job[]): DetailedStatus {
  if (jobs.length === 1) return jobs[0]!.detailed_status ?? fallbackStatus(jobs[0]!.status);
  const { status, warnings } = compositeStatus(jobs.map((job) => ({ status: job.status as CiStatus, allowFailure: job.allow_failure })));
  if (status === 'success' && warnings) {
    return { icon: 'status_warning', text: 'warning', label: 'passed with warnings', group: 'success-with-warnings', tooltip: 'passed with warnings', has_details: false, details_path: null };
  }
  return fallbackStatus(status ?? 'created');
}

/** The pipeline's stages in the order they first appear (jobs come sorted by id, so by stage), each with its job groups in GitLab's order. */
export function stageViews(jobs: readonly Job[]): StageView[] {
  const stages = new Map<string, Job[]>();
  for (const job of jobs) {
    const list = stages.get(job.stage) ?? [];
    list.push(job);
    stages.set(job.stage, list);
  }
  return [...stages].map(([name, list]) => ({ name, groups: groupJobs(list).map((group) => ({ ...group, status: groupStatus(group.jobs) })) }));
}

/** Each job's needs by name (jobs scheduled by stage are absent). */
export function needsByJob(dag: DagPipeline | undefined): Map<string, string[]> {
  const needs = new Map<string, string[]>();
  for (const stage of dag?.stages ?? []) for (const group of stage.groups) for (const job of group.jobs) if (job.needs) needs.set(job.name, job.needs);
  return needs;
}

/** A line of the graph: from the card of a job to the card of a job it needs. */
export interface NeedLink {
  from: string;
  to: string;
}

/**
 * The needs between cards: each job's needs mapped to the cards that hold them, once per pair
 * (the jobs of a group need the same jobs, so a group draws one line per card it needs).
 */
export function needLinks(stages: readonly StageView[], needs: ReadonlyMap<string, readonly string[]>): NeedLink[] {
  const cardOf = new Map<string, string>();
  for (const stage of stages) for (const group of stage.groups) for (const job of group.jobs) cardOf.set(job.name, group.name);
  const links = new Map<string, NeedLink>();
  for (const stage of stages) {
    for (const group of stage.groups) {
      for (const job of group.jobs) {
        for (const name of needs.get(job.name) ?? []) {
          const to = cardOf.get(name);
          if (to !== undefined && to !== group.name) links.set(`${group.name}\n${to}`, { from: group.name, to });
        }
      }
    }
  }
  return [...links.values()];
}

/** The names of the cards a card needs, directly or through others (what hovering it highlights). */
export function needsChain(links: readonly NeedLink[], card: string): Set<string> {
  const chain = new Set<string>();
  const queue = [card];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const link of links) {
      if (link.from === current && !chain.has(link.to)) {
        chain.add(link.to);
        queue.push(link.to);
      }
    }
  }
  return chain;
}

/**
 * GitLab's "Job dependencies" layout: columns by needs instead of stages. A card with needs sits
 * one column right of the furthest card it needs; a card scheduled by stage needs every card of
 * the stages before it (GitLab's previous-stage jobs) for its place, not for a line.
 */
export function dependencyLayers(stages: readonly StageView[], links: readonly NeedLink[], needs: ReadonlyMap<string, readonly string[]>): JobGroupView[][] {
  const layerOf = new Map<string, number>();
  const layers: JobGroupView[][] = [];
  const explicit = new Map<string, string[]>();
  for (const link of links) explicit.set(link.from, [...(explicit.get(link.from) ?? []), link.to]);
  const before: string[] = [];
  // Stages in order: every card a card can need (by `needs:` only earlier stages) is placed first.
  for (const stage of stages) {
    for (const group of stage.groups) {
      const byNeeds = group.jobs.some((job) => needs.has(job.name));
      const needed = byNeeds ? (explicit.get(group.name) ?? []) : before;
      const layer = needed.reduce((max, name) => Math.max(max, (layerOf.get(name) ?? -1) + 1), 0);
      layerOf.set(group.name, layer);
      (layers[layer] ??= []).push(group);
    }
    before.push(...stage.groups.map((group) => group.name));
  }
  return layers.filter((layer) => layer !== undefined);
}
