import { NotFoundError, UnprocessableError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { blobSizes, changedFiles, newCommits, readCommits } from '../../git/pushed-commits.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import { classifyRef, isDeletion, type RefUpdate } from '../pushes/push.js';
import type { PushRule } from './push-rule.js';
import { commitRefusal, fileRefusal, refRefusal, validatesCommits, validatesFiles } from './push-rule-check.js';
import { pushRuleSettings } from './push-rule-settings.js';
import type { PushRulesRepository } from './push-rules.repository.js';

export const PUSH_RULE_API_MESSAGES = {
  exists: 'Project push rule exists',
} as const;

/** The quarantine variables git gives the pre-receive hook: the objects of a push in flight. */
const QUARANTINE_VARIABLES = ['GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_QUARANTINE_PATH'] as const;

/**
 * Keeps the hook's quarantine variables that point inside the project's own repository (the
 * hook reports them; a value elsewhere is dropped, so a read never leaves the repository). Pure.
 */
export function quarantineEnv(repoPath: string, reported: unknown): Record<string, string> {
  const env: Record<string, string> = {};
  if (!reported || typeof reported !== 'object') return env;
  const inside = (path: string) => path === repoPath || path.startsWith(`${repoPath}/`);
  for (const name of QUARANTINE_VARIABLES) {
    const value = (reported as Record<string, unknown>)[name];
    if (typeof value !== 'string' || value === '' || value.includes('\0')) continue;
    if (value.split(':').every((path) => inside(path) && !path.split('/').includes('..'))) env[name] = value;
  }
  return env;
}

/**
 * A project's push rule: the REST API (GET/POST/PUT/DELETE /projects/:id/push_rule,
 * Maintainers and above) and the checks of a push, over git or through the API's write paths.
 */
export function createPushRulesService(deps: {
  pushRules: PushRulesRepository;
  projects: Pick<ProjectsService, 'find'>;
  authorizer: Pick<Authorizer, 'authorize'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
}) {
  async function manageable(actor: Actor, idOrPath: string | number): Promise<Project> {
    const project = await deps.projects.find(actor, idOrPath);
    await deps.authorizer.authorize(actor, 'admin_push_rules', { project });
    return project;
  }

  /** The commits of the updates that bring any, checked one by one (then their files). */
  async function commitsRefusal(rule: PushRule, project: Project, actor: Actor, tips: string[], via: 'git' | 'web', env: Record<string, string>): Promise<string | null> {
    const checkCommits = validatesCommits(rule);
    const checkFiles = validatesFiles(rule);
    if (tips.length === 0 || (!checkCommits && !checkFiles)) return null;
    const repoPath = deps.storage.pathFor(project.id);
    const commits = await readCommits(repoPath, await newCommits(repoPath, tips, env), env);
    if (checkCommits) {
      const knownEmails = rule.member_check ? await deps.pushRules.knownEmails(commits.flatMap((c) => [c.authorEmail, c.committerEmail])) : new Set<string>();
      const pusherEmails = actor.user ? [actor.user.email] : [];
      for (const commit of commits) {
        const refusal = commitRefusal(rule, commit, { via, pusherEmails, knownEmails });
        if (refusal) return refusal;
      }
    }
    if (checkFiles) {
      for (const commit of commits) {
        const files = await changedFiles(repoPath, commit.sha, env);
        const sizes = rule.max_file_size > 0 ? await blobSizes(repoPath, files.filter((f) => !f.deleted).map((f) => f.blob), env) : new Map<string, number>();
        for (const file of files) {
          const refusal = fileRefusal(rule, { ...file, size: sizes.get(file.blob) });
          if (refusal) return refusal;
        }
      }
    }
    return null;
  }

  return {
    /** GET: the rule, or null when the project has none (GitLab answers `null`). */
    async show(actor: Actor, idOrPath: string | number): Promise<PushRule | null> {
      const project = await manageable(actor, idOrPath);
      return (await deps.pushRules.findForProject(project.id)) ?? null;
    },
    async create(actor: Actor, idOrPath: string | number, input: Record<string, unknown>): Promise<PushRule> {
      const project = await manageable(actor, idOrPath);
      const settings = pushRuleSettings(input, { requireOne: true });
      const created = await deps.pushRules.insert(project.id, settings);
      // GitLab: 422 for a project that already has one.
      if (!created) throw new UnprocessableError(PUSH_RULE_API_MESSAGES.exists);
      return created;
    },
    async update(actor: Actor, idOrPath: string | number, input: Record<string, unknown>): Promise<PushRule> {
      const project = await manageable(actor, idOrPath);
      const settings = pushRuleSettings(input, { requireOne: true });
      const updated = await deps.pushRules.update(project.id, settings);
      if (!updated) throw new NotFoundError('Push Rule');
      return updated;
    },
    async remove(actor: Actor, idOrPath: string | number): Promise<void> {
      const project = await manageable(actor, idOrPath);
      if (!(await deps.pushRules.remove(project.id))) throw new NotFoundError('Push Rule');
    },

    /**
     * The push rule's verdict on ref updates: null to let them through, else GitLab's message.
     * `via` 'web' is the API's own writes (tag deletion and unsigned commits are not refused
     * there, as in GitLab); `env` carries a push's quarantine (see quarantineEnv).
     */
    async check(actor: Actor, project: Project, updates: readonly RefUpdate[], options: { via: 'git' | 'web'; env?: Record<string, string> }): Promise<string | null> {
      const rule = await deps.pushRules.findForProject(project.id);
      if (!rule) return null;
      const tips: string[] = [];
      for (const update of updates) {
        const ref = classifyRef(update.ref);
        if (ref.kind === 'other') continue;
        const deleting = isDeletion(update);
        const refusal = refRefusal(rule, { kind: ref.kind, name: ref.name, deleting }, { defaultBranch: project.default_branch, via: options.via });
        if (refusal) return refusal;
        if (ref.kind === 'branch' && !deleting) tips.push(update.newSha);
      }
      return commitsRefusal(rule, project, actor, tips, options.via, options.env ?? {});
    },
  };
}

export type PushRulesService = ReturnType<typeof createPushRulesService>;
