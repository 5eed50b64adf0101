/**
 * The bash script of one step, as gitlab-runner's bash shell writes it: `set -eo pipefail`, and
 * before each command its text echoed as `$ command` in bold green, so the log shows what ran.
 * The commands are the job's own text (the user's script) and run as written; everything this
 * runner adds is quoted.
 */
const GREEN = '\x1b[32;1m';
const RESET = '\x1b[0;m';

/** Single-quotes a string for bash: nothing inside is expanded. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function buildStepScript(commands: readonly string[], workDir: string): string {
  const lines = ['#!/usr/bin/env bash', 'set -eo pipefail', 'set +o noclobber', `cd -- ${shellQuote(workDir)}`];
  for (const command of commands) {
    if (command.trim() === '') continue;
    lines.push(`printf '%s\\n' ${shellQuote(`${GREEN}$ ${command}${RESET}`)}`);
    lines.push(command);
  }
  lines.push('');
  return lines.join('\n');
}

/** `section_start:<unix time>:<name>\r\e[0K<header>` — the job log page folds what lies between. */
export function sectionStart(name: string, header: string, now = Date.now()): string {
  return `section_start:${Math.floor(now / 1000)}:${name}\r\x1b[0K${GREEN}${header}${RESET}\n`;
}

export function sectionEnd(name: string, now = Date.now()): string {
  return `section_end:${Math.floor(now / 1000)}:${name}\r\x1b[0K\n`;
}

/** A runner's own message line, coloured as gitlab-runner's (green notices, red errors). */
export function notice(text: string): string {
  return `${GREEN}${text}${RESET}\n`;
}

export function errorLine(text: string): string {
  return `\x1b[31;1m${text}${RESET}\n`;
}
