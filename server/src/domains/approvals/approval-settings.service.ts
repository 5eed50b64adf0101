/**
 * Approval settings at the three levels: the instance's (administrators), a group's (its
 * Owners) and a project's (its Maintainers). A change to a setting locked above is ignored, as
 * GitLab filters it out; the answer shows the locked value and where the lock comes from.
 */
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { ForbiddenError, UnauthorizedError } from '../../platform/errors.js';
import type { GroupsService } from '../namespaces/groups.service.js';
import type { Namespace } from '../namespaces/namespace.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { EffectiveApprovalSettings } from './approval-rule.js';
import type { ApprovalLoader } from './approval-loader.js';
import { APPROVAL_SETTING_KEYS, lockedChanges, resolveApprovalSettings, type ApprovalSettingKey, type InstanceApprovalSettings, type ResolvedApprovalSettings, type StoredApprovalSettings } from './approval-settings.js';
import type { ApprovalsRepository } from './approvals.repository.js';

export type SettingChanges = Partial<Record<ApprovalSettingKey, boolean>>;

const EMPTY: StoredApprovalSettings = Object.fromEntries(APPROVAL_SETTING_KEYS.map((key) => [key, null])) as StoredApprovalSettings;

/** Drops the changes a lock above forbids. Pure. */
function allowed(resolved: ResolvedApprovalSettings, changes: SettingChanges): SettingChanges {
  const locked = new Set(lockedChanges(resolved, changes));
  return Object.fromEntries(Object.entries(changes).filter(([key, value]) => value !== undefined && !locked.has(key as ApprovalSettingKey)));
}

export function createApprovalSettingsService(deps: {
  repository: ApprovalsRepository;
  loader: Pick<ApprovalLoader, 'settingsOf'>;
  projects: Pick<ProjectsService, 'find'>;
  groups: Pick<GroupsService, 'find'>;
  authorizer: Pick<Authorizer, 'authorize'>;
}) {
  const { repository } = deps;

  async function groupSettings(group: Namespace): Promise<ResolvedApprovalSettings> {
    const ancestors = group.traversal_ids.map(Number).filter((id) => id !== group.id);
    const [instance, stored] = await Promise.all([repository.instanceSettings(), repository.storedSettings({ groupIds: [...ancestors, group.id] })]);
    return resolveApprovalSettings({ instance, groups: ancestors.map((id) => ({ id, settings: stored.groups.get(id) ?? EMPTY })), own: stored.groups.get(group.id) ?? EMPTY });
  }

  async function writableProject(actor: Actor, idOrPath: string | number, write: boolean): Promise<Project> {
    const project = await deps.projects.find(actor, idOrPath);
    await deps.authorizer.authorize(actor, write ? 'admin_merge_request_approvals' : 'read_merge_request', { project });
    return project;
  }

  async function writableGroup(actor: Actor, idOrPath: string | number): Promise<Namespace> {
    const group = await deps.groups.find(actor, idOrPath);
    await deps.authorizer.authorize(actor, 'admin_merge_request_approvals', { group });
    return group;
  }

  const assertAdmin = (actor: Actor) => {
    if (!actor.user) throw new UnauthorizedError();
    if (!actor.user.is_admin) throw new ForbiddenError();
  };

  return {
    /** The project's effective settings (GET /projects/:id/approvals). */
    async project(actor: Actor, idOrPath: string | number): Promise<{ project: Project; settings: EffectiveApprovalSettings; resolved: ResolvedApprovalSettings }> {
      const project = await writableProject(actor, idOrPath, false);
      return { project, ...(await deps.loader.settingsOf(project)) };
    },

    async updateProject(actor: Actor, idOrPath: string | number, changes: SettingChanges & { approvalsBeforeMerge?: number }): Promise<{ project: Project; settings: EffectiveApprovalSettings; resolved: ResolvedApprovalSettings }> {
      const project = await writableProject(actor, idOrPath, true);
      const { resolved } = await deps.loader.settingsOf(project);
      const { approvalsBeforeMerge, ...settings } = changes;
      await repository.saveSettings({ projectId: project.id }, { ...allowed(resolved, settings), approvals_before_merge: approvalsBeforeMerge });
      return { project, ...(await deps.loader.settingsOf(project)) };
    },

    async projectSetting(actor: Actor, idOrPath: string | number, write: boolean): Promise<Project> {
      return writableProject(actor, idOrPath, write);
    },

    async group(actor: Actor, idOrPath: string | number): Promise<ResolvedApprovalSettings> {
      return groupSettings(await writableGroup(actor, idOrPath));
    },

    async updateGroup(actor: Actor, idOrPath: string | number, changes: SettingChanges): Promise<ResolvedApprovalSettings> {
      const group = await writableGroup(actor, idOrPath);
      await repository.saveSettings({ groupId: group.id }, allowed(await groupSettings(group), changes));
      return groupSettings(group);
    },

    async instance(actor: Actor): Promise<InstanceApprovalSettings> {
      assertAdmin(actor);
      return repository.instanceSettings();
    },

    async updateInstance(actor: Actor, changes: Partial<InstanceApprovalSettings>): Promise<InstanceApprovalSettings> {
      assertAdmin(actor);
      await repository.updateInstanceSettings(changes);
      return repository.instanceSettings();
    },
  };
}

export type ApprovalSettingsService = ReturnType<typeof createApprovalSettingsService>;
