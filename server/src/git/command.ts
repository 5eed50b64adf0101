/**
 * The one git command builder. Every git invocation in Tributary is built here.
 *
 * Two kinds of arguments, as in Gitea's TrustedCmdArgs / AddDynamicArguments:
 * - trusted: subcommand, flags and option names are string literals in our source (the
 *   `Literal<>` type refuses a plain `string` at compile time);
 * - dynamic: values that may come from users (revisions, option values, paths) are
 *   checked here, before git runs. A revision or option value may not begin with `-`
 *   nor hold NUL or a newline; revisions go after `--end-of-options`, paths after `--`.
 *
 *   await git(repo).sub('log').flag('-z').option('--max-count', 20).revisions(ref).paths(p).run();
 */
import type { ChildProcess } from 'node:child_process';
import { isAbsolute } from 'node:path';
import { assertDynamicValue, assertObjectId, assertPathArgument, type Literal, type TrustedFlag } from './arguments.js';
import { classifyGitError } from './error-codes.js';
import { GitArgumentError, GitCommandError } from './errors.js';
import { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS, executeGit, spawnGit, type GitProcessSpec, type GitResult } from './process.js';

export type { GitResult } from './process.js';
export { assertDynamicValue, assertObjectId, assertPathArgument, constantFlag, type Literal, type TrustedFlag } from './arguments.js';

export class GitCommand {
  private readonly globals: string[] = [];
  private subcommand = '';
  private readonly args: string[] = [];
  private stage: 'options' | 'revisions' | 'paths' = 'options';
  private readonly extraEnv: Record<string, string> = {};
  private stdin: string | Buffer | undefined;
  private timeoutMs = DEFAULT_TIMEOUT_MS;
  private maxOutputBytes = DEFAULT_MAX_OUTPUT_BYTES;

  constructor(gitDir: string | null) {
    if (gitDir !== null) {
      if (!isAbsolute(gitDir) || gitDir.includes('\0')) throw new GitArgumentError('Repository path must be absolute', gitDir);
      this.globals.push(`--git-dir=${gitDir}`);
    }
  }

  /** `-c key=value` before the subcommand; the key is trusted, the value is checked. */
  config<K extends string>(key: Literal<K>, value: string | number | boolean): this {
    if (this.subcommand) throw new Error('git config options go before the subcommand');
    if (!/^[A-Za-z][\w-]*(\.[^=\s]+)*\.[A-Za-z][\w-]*$/.test(key)) throw new Error(`not a config key: ${key}`);
    const text = String(value);
    if (text.includes('\0') || text.includes('\n')) throw new GitArgumentError('Config value may not contain NUL or a line break', text);
    this.globals.push('-c', `${key}=${text}`);
    return this;
  }

  sub<S extends string>(name: Literal<S>): this {
    if (this.subcommand) throw new Error('git subcommand already set');
    if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`not a git subcommand: ${name}`);
    this.subcommand = name;
    return this;
  }

  /** Constant flags written in our source: `'-z'`, `'--format=%H'`, `'-F', '-'`. */
  flag<F extends string>(...flags: Array<Literal<F> | TrustedFlag>): this {
    this.requireStage('options', 'flags');
    for (const flag of flags as string[]) {
      if (!flag.startsWith('-') || flag.includes('\0') || flag.includes('\n')) throw new Error(`not a trusted flag: ${flag}`);
      this.args.push(flag);
    }
    return this;
  }

  /** A trusted option with a dynamic value: `--max-count=<v>`, or `-p<v>` for one-letter options. */
  option<N extends string>(name: Literal<N>, value: string | number): this {
    this.requireStage('options', 'options');
    const text = assertDynamicValue(String(value), `Value of ${name}`);
    const stuck = /^-[A-Za-z]$/.test(name) ? `${name}${text}` : `${name}=${text}`;
    this.args.push(stuck);
    return this;
  }

  /** Full object ids git has to take positionally (e.g. `commit-tree <tree>`, which lacks --end-of-options in 2.39). */
  objectIds(...ids: string[]): this {
    if (this.stage === 'paths') throw new Error('object ids must come before paths');
    for (const id of ids) this.args.push(assertObjectId(id));
    return this;
  }

  /** User revisions (refs, SHAs, ranges) after `--end-of-options`. */
  revisions(...revs: string[]): this {
    for (const rev of revs) assertDynamicValue(rev, 'Revision');
    this.enterRevisions();
    this.args.push(...revs);
    return this;
  }

  /** `<rev>:<path>`: the revision is checked as one; the path may hold anything but NUL. */
  revisionPath(rev: string, path: string): this {
    assertDynamicValue(rev, 'Revision');
    assertPathArgument(path);
    this.enterRevisions();
    this.args.push(`${rev}:${path}`);
    return this;
  }

  /** Paths after `--`; they may begin with `-`, git reads them as paths there. */
  paths(...paths: string[]): this {
    for (const path of paths) assertPathArgument(path);
    if (this.stage !== 'paths') this.args.push('--');
    this.stage = 'paths';
    this.args.push(...paths);
    return this;
  }

  env(vars: Readonly<Record<string, string>>): this {
    for (const [key, value] of Object.entries(vars)) {
      if (!/^[A-Z][A-Z0-9_]*$/.test(key) || value.includes('\0')) throw new GitArgumentError('Bad environment variable', key);
      this.extraEnv[key] = value;
    }
    return this;
  }

  input(data: string | Buffer): this {
    this.stdin = data;
    return this;
  }

  timeout(ms: number): this {
    this.timeoutMs = ms;
    return this;
  }

  maxOutput(bytes: number): this {
    this.maxOutputBytes = bytes;
    return this;
  }

  /** The subcommand, for messages. */
  get name(): string {
    return this.subcommand;
  }

  argv(): string[] {
    if (!this.subcommand) throw new Error('git subcommand not set');
    return [...this.globals, this.subcommand, ...this.args];
  }

  /** Runs git and returns whatever it exited with. */
  exec(): Promise<GitResult> {
    return executeGit(this.spec());
  }

  /** Runs git; a non-zero exit throws GitCommandError with a classified code. */
  async run(): Promise<GitResult> {
    const result = await this.exec();
    if (result.exitCode !== 0) throw new GitCommandError(this.subcommand, result.exitCode, result.stderr, classifyGitError(result.stderr));
    return result;
  }

  /** Starts git with piped stdio for streaming callers (smart HTTP); the deadline still applies. */
  spawnStream(): ChildProcess {
    return spawnGit(this.spec());
  }

  private spec(): GitProcessSpec {
    return {
      argv: this.argv(),
      env: this.extraEnv,
      stdin: this.stdin,
      timeoutMs: this.timeoutMs,
      maxOutputBytes: this.maxOutputBytes,
      subcommand: this.subcommand,
    };
  }

  private enterRevisions(): void {
    if (this.stage === 'paths') throw new Error('revisions must come before paths');
    if (this.stage === 'options') this.args.push('--end-of-options');
    this.stage = 'revisions';
  }

  private requireStage(stage: 'options', what: string): void {
    if (this.stage !== stage) throw new Error(`git ${what} must come before revisions and paths`);
  }
}

/** Starts a command against a bare repository (`--git-dir=<repoPath>`). */
export function git(repoPath: string): GitCommand {
  return new GitCommand(repoPath);
}

/** A command outside any repository (`git version`). */
export function gitWithoutRepository(): GitCommand {
  return new GitCommand(null);
}
