import { startMergeRequestFixtures, type MergeRequestFixtures } from './merge-request-fixtures.js';
import type { TestUser } from './server.js';

type Project = { id: number; path_with_namespace: string };

export interface MarkdownFixtures {
  fx: MergeRequestFixtures;
  /** private, with merge request !1 titled 'Secret <b>plans</b>' (an HTML title to escape) */
  secret: Project;
  /** public, with merge request !1 titled 'Public work' */
  open: Project;
  /** sees only what the public sees */
  stranger: TestUser;
  /** a Reporter of `secret` */
  reporter: TestUser;
}

/**
 * What the Markdown tests render references against: a private and a public project with one
 * merge request each, a stranger and a Reporter of the private one. `prefix` keeps paths apart
 * from other files' projects.
 */
export async function startMarkdownFixtures(prefix: string): Promise<MarkdownFixtures> {
  const fx = await startMergeRequestFixtures();
  const secret = await fx.createProject(`secret-${prefix}`);
  const open = await fx.createProject(`open-${prefix}`, { visibility: 'public' });
  for (const [project, title] of [[secret, 'Secret <b>plans</b>'], [open, 'Public work']] as const) {
    await fx.root.Commits.create(project.id, 'topic', 'Topic', [{ action: 'create', filePath: 'topic.txt', content: 'topic\n' }], { startBranch: 'main' });
    await fx.root.MergeRequests.create(project.id, 'topic', 'main', title);
  }
  const stranger = await fx.server.createUser();
  const reporter = await fx.member(secret.id, 20);
  return { fx, secret, open, stranger, reporter };
}
