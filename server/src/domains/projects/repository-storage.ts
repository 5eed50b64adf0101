/**
 * What the projects domain needs from git storage. git/storage.ts provides
 * it; keeping the interface here lets the domain stay free of git details.
 */
export interface RepositoryStorage {
  pathFor(projectId: number): string;
  create(projectId: number, defaultBranch: string): Promise<void>;
  remove(projectId: number): Promise<void>;
  /** Commits an initial README.md to the default branch (initialize_with_readme). */
  initializeWithReadme(projectId: number, input: { branch: string; content: string; author: { name: string; email: string } }): Promise<void>;
  isEmpty(projectId: number): Promise<boolean>;
}
