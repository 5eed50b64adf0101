import { Heading, Stack, Text } from '@primer/react';
import type { Project, User } from '../../lib/gitlab-types';
import { useOptionalUser } from '../session';
import { CloneBox } from './CloneBox';
import styles from './EmptyRepository.module.css';

/** The branch git commands create when none is configured; GitLab's default too. */
const DEFAULT_BRANCH = 'main';

function Commands({ title, lines }: { title: string; lines: string[] }) {
  return (
    <section className={styles.section}>
      <Heading as="h3" variant="small">
        {title}
      </Heading>
      <pre className={styles.commands}>
        <code>{lines.join('\n')}</code>
      </pre>
    </section>
  );
}

/** GitLab's empty-repository page: the clone URL and the git commands to push something. */
export function EmptyRepository({ project }: { project: Project }) {
  const user = useOptionalUser();
  const url = project.http_url_to_repo;
  const branch = project.default_branch ?? DEFAULT_BRANCH;
  return (
    <Stack gap="normal">
      <div className={styles.banner}>
        <Heading as="h2" variant="medium">
          The repository for this project is empty
        </Heading>
        <Text as="p" className="fgMuted">
          You can get started by cloning the repository or start adding files to it with one of the following options.
        </Text>
        <CloneBox url={url} />
      </div>
      {user ? <PushInstructions project={project} url={url} branch={branch} user={user} /> : null}
    </Stack>
  );
}

/** How to push the first commit: only for a signed-in user (a visitor cannot push). */
function PushInstructions({ project, url, branch, user }: { project: Project; url: string; branch: string; user: User }) {
  return (
    <>
      <Heading as="h2" variant="small">
        Command line instructions
      </Heading>
      <Text as="p" className="fgMuted">
        You can also upload existing files from your computer using the instructions below.
      </Text>
      <Commands
        title="Git global setup"
        lines={[`git config --global user.name "${user.name}"`, `git config --global user.email "${user.email ?? `${user.username}@example.com`}"`]}
      />
      <Commands
        title="Create a new repository"
        lines={[
          `git clone ${url}`,
          `cd ${project.path}`,
          `git switch --create ${branch}`,
          'touch README.md',
          'git add README.md',
          'git commit -m "add README"',
          `git push --set-upstream origin ${branch}`,
        ]}
      />
      <Commands
        title="Push an existing folder"
        lines={[
          'cd existing_folder',
          `git init --initial-branch=${branch}`,
          `git remote add origin ${url}`,
          'git add .',
          'git commit -m "Initial commit"',
          `git push --set-upstream origin ${branch}`,
        ]}
      />
      <Commands
        title="Push an existing Git repository"
        lines={[
          'cd existing_repo',
          'git remote rename origin old-origin',
          `git remote add origin ${url}`,
          'git push --set-upstream origin --all',
          'git push --set-upstream origin --tags',
        ]}
      />
    </>
  );
}
