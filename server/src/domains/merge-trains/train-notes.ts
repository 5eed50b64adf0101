/**
 * What merge train system notes say (GitLab's SystemNotes::MergeTrainService), and the tail of
 * a failed job's log that an ejection note quotes. Pure.
 *
 * A merge train note is the merge request event `merge_train`, from_value naming the kind and
 * to_value its detail (the position, or why the car left).
 */
export type TrainNoteKind = 'started' | 'added' | 'removed' | 'aborted' | 'skipped';

export function trainNoteBody(kind: string | null, detail: string | null): string {
  switch (kind) {
    case 'started':
      return 'started a merge train';
    case 'added':
      return `added this merge request to the merge train at position ${detail ?? ''}`;
    case 'aborted':
      return `removed this merge request from the merge train because ${detail ?? ''}`;
    case 'skipped':
      return 'merged this merge request immediately, skipping the merge train';
    default:
      return 'removed this merge request from the merge train';
  }
}

/** How many lines of a failed job's log an ejection note quotes. */
export const LOG_TAIL_LINES = 10;

/**
 * The last `lines` lines of a job log as plain text: ANSI colours and the runner's
 * section_start/section_end markers removed, carriage-return progress lines collapsed, and
 * backticks softened so the quote cannot close its code block.
 */
export function logTail(log: string, lines = LOG_TAIL_LINES): string {
  const plain = log
    // eslint-disable-next-line no-control-regex
    .replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')
    // eslint-disable-next-line no-control-regex
    .replace(/section_(?:start|end):\d+:[^\r\n]*?\r(?:\x1b\[0K)?/g, '')
    .split('\n')
    .map((line) => {
      const parts = line.split('\r').filter((part) => part !== '');
      return (parts[parts.length - 1] ?? '').trimEnd();
    });
  while (plain.length > 0 && plain[plain.length - 1] === '') plain.pop();
  return plain.slice(-lines).join('\n').replace(/```/g, "'''");
}

/** The reason an ejected car's note gives: its failed job and the end of that job's log. */
export function failureReason(job: { name: string } | null, tail: string): string {
  if (!job) return 'the pipeline did not succeed';
  const quote = tail === '' ? '' : `\n\n\`\`\`\n${tail}\n\`\`\``;
  return `the pipeline did not succeed: job \`${job.name}\` failed${quote}`;
}
