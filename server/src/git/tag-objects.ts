/**
 * Annotated tag objects, written with `git mktag` (no work tree, no ref moved: the caller
 * creates the ref by compare-and-swap).
 */
import { assertObjectId, git } from './command.js';

export interface Tagger {
  name: string;
  email: string;
  date?: Date;
}

/** git's identity fields may not hold `<`, `>` or line breaks; they are left out, as git's own ident does. */
const identityPart = (text: string) => text.replace(/[<>\n\r\0]/g, '').trim();

/** The text `git mktag` reads; pure, exported for tests. */
export function tagObjectText(input: { target: string; name: string; tagger: Tagger; message: string }): string {
  const seconds = Math.floor((input.tagger.date ?? new Date()).getTime() / 1000);
  const message = input.message.endsWith('\n') ? input.message : `${input.message}\n`;
  return [
    `object ${assertObjectId(input.target)}`,
    'type commit',
    `tag ${input.name}`,
    `tagger ${identityPart(input.tagger.name)} <${identityPart(input.tagger.email)}> ${seconds} +0000`,
    '',
    message,
  ].join('\n');
}

/** Writes an annotated tag object for the commit `target`; returns its id. */
export async function writeTagObject(repoPath: string, input: { target: string; name: string; tagger: Tagger; message: string }): Promise<string> {
  const { stdout } = await git(repoPath).sub('mktag').input(tagObjectText(input)).run();
  return stdout.toString('utf8').trim();
}
