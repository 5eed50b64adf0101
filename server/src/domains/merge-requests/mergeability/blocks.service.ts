/**
 * Merge request dependencies ("blocking merge requests", GitLab's MergeRequestBlock and
 * API::MergeRequestDependencies): a request may be merged only once the requests that block
 * it are merged (BLOCKED_STATUS). Blockers may live in other projects; the caller sees only
 * those it may read, and a hidden one still blocks.
 */
import { t } from '@tributary/contracts';
import type { Actor } from '../../../auth/actor.js';
import type { Authorizer } from '../../../auth/authorizer.js';
import { canUpdateMergeRequest } from '../../../auth/permissions.js';
import type { Database } from '../../../platform/db/database.js';
import { ConflictError, DomainError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../../platform/errors.js';
import type { ProjectsService } from '../../projects/projects.service.js';
import type { MergeRequest } from '../merge-request.js';
import type { MergeRequestsRepository } from '../merge-requests.repository.js';
import type { OpenedMergeRequest } from '../merge-request.js';
import type { MergeabilityRepository, MergeRequestBlock } from './mergeability.repository.js';
import type { Mergeability } from './mergeability.service.js';

/** 404 with GitLab's sentence for a blocking request that does not exist (or is not visible by iid). */
export class BlockingMergeRequestNotFoundError extends DomainError {
  readonly status = 404;
  constructor() {
    super(t('Blocking merge request not found'));
  }
}

/** A block as the API shows it: each side only when the caller may read it. */
export interface BlockView {
  block: MergeRequestBlock;
  blocking: MergeRequest | null;
  blocked: MergeRequest | null;
}

/** Which request blocks: GitLab's global `blocking_merge_request_id`, or an iid in this (or `blocking_project_id`'s) project. */
export type BlockingReference = { id: number } | { iid: number; project?: string | number };

export function createMergeRequestBlocks(deps: {
  db: Pick<Database, 'transaction'>;
  repository: Pick<MergeabilityRepository, 'insertBlock' | 'wouldCycle' | 'blocksOf' | 'blockeesOf' | 'findBlock' | 'deleteBlock'>;
  mergeRequests: Pick<MergeRequestsRepository, 'findById' | 'findByIid'>;
  projects: Pick<ProjectsService, 'find'>;
  authorizer: Pick<Authorizer, 'can'>;
  mergeability: Pick<Mergeability, 'publishChanged'>;
}) {
  /** May the actor read this merge request (its target project's code)? Not visible → false. */
  async function canRead(actor: Actor, mergeRequest: MergeRequest): Promise<boolean> {
    try {
      const project = await deps.projects.find(actor, mergeRequest.target_project_id);
      return await deps.authorizer.can(actor, 'read_merge_request', { project });
    } catch (error) {
      if (error instanceof NotFoundError) return false;
      throw error;
    }
  }

  async function visible(actor: Actor, id: number, known: OpenedMergeRequest): Promise<MergeRequest | null> {
    if (id === known.mergeRequest.id) return known.mergeRequest;
    const mergeRequest = await deps.mergeRequests.findById(id);
    return mergeRequest && (await canRead(actor, mergeRequest)) ? mergeRequest : null;
  }

  async function view(actor: Actor, opened: OpenedMergeRequest, block: MergeRequestBlock): Promise<BlockView> {
    const [blocking, blocked] = await Promise.all([visible(actor, block.blocking_merge_request_id, opened), visible(actor, block.blocked_merge_request_id, opened)]);
    return { block, blocking, blocked };
  }

  /** GitLab words the refusal differently for creating ('Lacking permissions…') and deleting ('403 Forbidden'). */
  function assertCanUpdate(actor: Actor, opened: OpenedMergeRequest, message?: string): void {
    if (!actor.user) throw new UnauthorizedError();
    if (!canUpdateMergeRequest(opened.abilities, opened.mergeRequest.author_id === actor.user.id)) throw new ForbiddenError(message);
  }

  async function findBlocking(actor: Actor, opened: OpenedMergeRequest, reference: BlockingReference): Promise<MergeRequest> {
    if ('id' in reference) {
      const found = await deps.mergeRequests.findById(reference.id);
      if (!found) throw new BlockingMergeRequestNotFoundError();
      if (!(await canRead(actor, found))) throw new ForbiddenError(t('Lacking permissions to the blocking merge request'));
      return found;
    }
    // By iid: the project is looked up as the caller sees it (404 when hidden), as GitLab does.
    const project = reference.project === undefined ? opened.project : await deps.projects.find(actor, reference.project);
    const found = await deps.mergeRequests.findByIid(project.id, reference.iid);
    if (!found || !(await deps.authorizer.can(actor, 'read_merge_request', { project }))) throw new BlockingMergeRequestNotFoundError();
    return found;
  }

  return {
    /** GET …/blocks: what blocks this merge request, oldest first. */
    async list(actor: Actor, opened: OpenedMergeRequest): Promise<BlockView[]> {
      return Promise.all((await deps.repository.blocksOf(opened.mergeRequest.id)).map((block) => view(actor, opened, block)));
    },

    /** GET …/blockees: what this merge request blocks. */
    async blockees(actor: Actor, opened: OpenedMergeRequest): Promise<BlockView[]> {
      return Promise.all((await deps.repository.blockeesOf(opened.mergeRequest.id)).map((block) => view(actor, opened, block)));
    },

    async get(actor: Actor, opened: OpenedMergeRequest, blockId: number): Promise<BlockView> {
      const block = await deps.repository.findBlock(opened.mergeRequest.id, blockId);
      if (!block) throw new NotFoundError('Block');
      return view(actor, opened, block);
    },

    /** POST …/blocks: 201, or GitLab's 403 / 404 / 409 answers; a cycle is refused (400). */
    async create(actor: Actor, opened: OpenedMergeRequest, reference: BlockingReference): Promise<BlockView> {
      assertCanUpdate(actor, opened, t('Lacking permissions to update the merge request'));
      const blocking = await findBlocking(actor, opened, reference);
      const blocked = opened.mergeRequest;
      if (blocking.id === blocked.id) throw new ValidationError(t('This block is self-referential'));
      const id = await deps.db.transaction(async (tx) => {
        // Cycles would block their requests for ever.
        if (await deps.repository.wouldCycle(blocking.id, blocked.id, tx)) throw new ValidationError(t('This block would make the merge requests block each other'));
        const created = await deps.repository.insertBlock(blocking.id, blocked.id, tx);
        if (created === null) throw new ConflictError(t('Block already exists'));
        await deps.mergeability.publishChanged([blocked], tx);
        return created;
      });
      return { block: (await deps.repository.findBlock(blocked.id, id))!, blocking, blocked };
    },

    /** DELETE …/blocks/:block_id: 204; updating the request and reading the blocker are required (403). */
    async remove(actor: Actor, opened: OpenedMergeRequest, blockId: number): Promise<void> {
      const block = await deps.repository.findBlock(opened.mergeRequest.id, blockId);
      if (!block) throw new NotFoundError('Block');
      assertCanUpdate(actor, opened);
      const blocking = await deps.mergeRequests.findById(block.blocking_merge_request_id);
      if (blocking && !(await canRead(actor, blocking))) throw new ForbiddenError();
      await deps.db.transaction(async (tx) => {
        await deps.repository.deleteBlock(block.id, tx);
        await deps.mergeability.publishChanged([opened.mergeRequest], tx);
      });
    },

    /** The widget's list: blockers the caller may see, and how many it may not. */
    async visibleBlockers(actor: Actor, opened: OpenedMergeRequest): Promise<{ visible: MergeRequest[]; hiddenCount: number }> {
      const views = await Promise.all((await deps.repository.blocksOf(opened.mergeRequest.id)).map((block) => view(actor, opened, block)));
      const shown = views.flatMap((entry) => (entry.blocking ? [entry.blocking] : []));
      return { visible: shown, hiddenCount: views.length - shown.length };
    },
  };
}

export type MergeRequestBlocks = ReturnType<typeof createMergeRequestBlocks>;
