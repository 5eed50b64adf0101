import type { FastifyInstance } from 'fastify';
import type { RestContext } from '../../context.js';
import { branchRoutes } from './branches.js';
import { commitPickRoutes } from './commit-picks.js';
import { commitRoutes } from './commits.js';
import { compareRoutes } from './compare.js';
import { fileRoutes } from './files.js';
import { mergeBaseRoutes } from './merge-base.js';
import { protectedBranchRoutes } from './protected-branches.js';
import { protectedTagRoutes } from './protected-tags.js';
import { tagRoutes } from './tags.js';
import { repositoryReadRoutes } from './reads.js';

/** Every repository route module: branches, tags, protected branches and tags, tree, files, commits, compare, merge base, archives, blame, blobs, contributors. */
export function repositoryRoutes(app: FastifyInstance, ctx: RestContext<'branchProtection' | 'branches' | 'commitPicks' | 'commits' | 'compare' | 'files' | 'repositoryReads' | 'tagProtection' | 'tags'>): void {
  branchRoutes(app, ctx);
  protectedBranchRoutes(app, ctx);
  protectedTagRoutes(app, ctx);
  tagRoutes(app, ctx);
  repositoryReadRoutes(app, ctx);
  fileRoutes(app, ctx);
  commitRoutes(app, ctx);
  commitPickRoutes(app, ctx);
  compareRoutes(app, ctx);
  mergeBaseRoutes(app, ctx);
}
