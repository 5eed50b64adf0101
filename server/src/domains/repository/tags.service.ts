import { t } from '@tributary/contracts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import { RefConflictError } from '../../git/errors.js';
import { isValidFullRefName, tagRef, validateTagName } from '../../git/ref-names.js';
import { createRef, deleteRef } from '../../git/ref-updates.js';
import { readRef, resolveCommit, type GitRef } from '../../git/refs.js';
import { writeTagObject } from '../../git/tag-objects.js';
import type { Project } from '../projects/project.js';
import type { ProtectedBranchesRepository } from '../protected-branches/protected-branches.repository.js';
import type { ProtectedTagsRepository } from '../protected-tags/protected-tags.repository.js';
import { tagProtectionsFor } from '../protected-tags/tag-rules.js';
import { checkPush } from '../pushes/push-policy.js';
import type { PushesService } from '../pushes/pushes.service.js';
import { ZERO_SHA } from '../pushes/push.js';
import type { TagView } from './branches.service.js';
import type { RepositoryAccess } from './repository-access.js';

/** GitLab's Tags::CreateService and Tags::DestroyService messages. */
export const TAG_MESSAGES = {
  invalidName: 'Tag name invalid',
  invalidTarget: 'Target %{ref} is invalid',
  exists: 'Tag %{tag} already exists',
} as const;

const tagView = (name: string, ref: GitRef): TagView => ({ name, target: ref.target, message: ref.tagMessage, commit: ref.commit, created_at: ref.taggedAt });

/**
 * Tags through the API (doc/api/tags.md): one tag, create (annotated when a message is given)
 * and delete. Who may do it is the push rule for tags (`checkPush`, Developers and up, as a
 * `git push` of the tag, and the protected tag rules), and the ref moves by compare-and-swap and is recorded as a push.
 */
export function createTagsService(deps: {
  access: RepositoryAccess;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject'>;
  protectedTags: Pick<ProtectedTagsRepository, 'listForProject'>;
  pushes: Pick<PushesService, 'postReceive'>;
}) {
  const { access } = deps;

  async function findTag(repoPath: string, name: string): Promise<GitRef | null> {
    if (!isValidFullRefName(tagRef(name))) return null;
    return readRef(repoPath, tagRef(name));
  }

  async function refuseUnlessAllowed(actor: Actor, project: Project, update: { ref: string; oldSha: string; newSha: string }) {
    const [pusher, protections, tagProtections] = await Promise.all([
      access.pusher(actor, project),
      deps.protectedBranches.listForProject(project.id),
      deps.protectedTags.listForProject(project.id),
    ]);
    // The API is GitLab's "web" protocol: it may delete a protected tag that git push may not.
    const refusal = checkPush(pusher, [update], protections, tagProtections, 'web');
    if (refusal) throw new ForbiddenError(refusal);
    return pusher;
  }

  async function show(actor: Actor, idOrPath: string | number, name: string): Promise<{ project: Project; tag: TagView }> {
    const { project, repoPath } = await access.open(actor, idOrPath, 'download_code');
    const ref = await findTag(repoPath, name);
    if (!ref) throw new NotFoundError('Tag');
    const isProtected = tagProtectionsFor(name, await deps.protectedTags.listForProject(project.id)).length > 0;
    return { project, tag: { ...tagView(name, ref), protected: isProtected } };
  }

  return {
    show,

    async create(actor: Actor, idOrPath: string | number, input: { tag_name: string; ref: string; message?: string }) {
      const { project, repoPath } = await access.open(actor, idOrPath, 'push_code');
      if (validateTagName(input.tag_name)) throw new ValidationError(t(TAG_MESSAGES.invalidName));
      const sha = await resolveCommit(repoPath, input.ref);
      if (!sha) throw new ValidationError(t(TAG_MESSAGES.invalidTarget, { ref: input.ref }));
      if (await findTag(repoPath, input.tag_name)) throw new ValidationError(t(TAG_MESSAGES.exists, { tag: input.tag_name }));
      const ref = tagRef(input.tag_name);
      const pusher = await refuseUnlessAllowed(actor, project, { ref, oldSha: ZERO_SHA, newSha: sha });
      // GitLab strips the message; an empty one makes a lightweight tag.
      const message = input.message?.trim() ?? '';
      const user = actor.user!;
      const target = message ? await writeTagObject(repoPath, { target: sha, name: input.tag_name, tagger: { name: user.name, email: user.email }, message }) : sha;
      try {
        await createRef(repoPath, ref, target);
      } catch (error) {
        if (error instanceof RefConflictError) throw new ValidationError(t(TAG_MESSAGES.exists, { tag: input.tag_name }));
        throw error;
      }
      await deps.pushes.postReceive(pusher.userId, project.id, [{ ref, oldSha: ZERO_SHA, newSha: sha }]);
      return show(actor, project.id, input.tag_name);
    },

    async remove(actor: Actor, idOrPath: string | number, name: string): Promise<void> {
      const { project, repoPath } = await access.open(actor, idOrPath, 'push_code');
      const ref = await findTag(repoPath, name);
      if (!ref) throw new NotFoundError('Tag');
      const pusher = await refuseUnlessAllowed(actor, project, { ref: ref.ref, oldSha: ref.target, newSha: ZERO_SHA });
      // Compare-and-swap: a tag moved since we read it is not deleted (409).
      await deleteRef(repoPath, ref.ref, ref.target);
      await deps.pushes.postReceive(pusher.userId, project.id, [{ ref: ref.ref, oldSha: ref.commit?.id ?? ref.target, newSha: ZERO_SHA }]);
    },
  };
}

export type TagsService = ReturnType<typeof createTagsService>;
