import { describe, expect, it } from 'vitest';
import {
  applyToContent,
  inapplicableReason,
  linesBetween,
  rangesOverlap,
  suggestionCommitMessage,
  suggestionRange,
  SUGGESTION_MESSAGES,
  toContent,
  type SuggestionFacts,
} from './suggestion-rules.js';

describe('suggestionRange', () => {
  it('widens the commented line by the context, never above line 1, at most 100 each way', () => {
    expect(suggestionRange(5, 0, 0)).toEqual({ from: 5, to: 5 });
    expect(suggestionRange(5, 2, 3)).toEqual({ from: 3, to: 8 });
    expect(suggestionRange(2, 5, 0)).toEqual({ from: 1, to: 2 });
    expect(suggestionRange(500, 300, 300)).toEqual({ from: 400, to: 600 });
  });
});

describe('linesBetween and toContent', () => {
  const file = 'one\ntwo\r\nthree';

  it('keeps line breaks, CRLF included, and a last line without one', () => {
    expect(linesBetween(file, { from: 1, to: 1 })).toBe('one\n');
    expect(linesBetween(file, { from: 2, to: 3 })).toBe('two\r\nthree');
    expect(linesBetween(file, { from: 3, to: 9 })).toBe('three');
  });

  it('ends the new text with the replaced last line break, or none', () => {
    expect(toContent('uno', 'one\n')).toBe('uno\n');
    expect(toContent('dos', 'two\r\n')).toBe('dos\r\n');
    expect(toContent('tres', 'three')).toBe('tres');
    expect(toContent('a\nb', 'x\ny\n')).toBe('a\nb\n');
  });

  it('turns a blank suggestion into a deletion', () => {
    expect(toContent('', 'one\n')).toBe('');
    expect(toContent('  ', 'one\n')).toBe('');
  });
});

describe('rangesOverlap', () => {
  it('finds ranges of one file that share a line, whatever their order', () => {
    expect(rangesOverlap([{ from: 1, to: 2 }, { from: 3, to: 4 }])).toBe(false);
    expect(rangesOverlap([{ from: 3, to: 4 }, { from: 1, to: 3 }])).toBe(true);
    expect(rangesOverlap([{ from: 5, to: 5 }, { from: 5, to: 5 }])).toBe(true);
    expect(rangesOverlap([{ from: 1, to: 10 }, { from: 12, to: 12 }, { from: 4, to: 4 }])).toBe(true);
  });
});

describe('applyToContent', () => {
  const file = 'a\nb\nc\nd\ne\n';

  it('replaces one line', () => {
    expect(applyToContent(file, [{ from: 2, to: 2, toContent: 'B\n' }])).toBe('a\nB\nc\nd\ne\n');
  });

  it('replaces several ranges of different sizes at once, in any order', () => {
    const changes = [
      { from: 4, to: 5, toContent: 'DE\n' },
      { from: 1, to: 1, toContent: 'A1\nA2\n' },
    ];
    expect(applyToContent(file, changes)).toBe('A1\nA2\nb\nc\nDE\n');
  });

  it('deletes lines with an empty suggestion, and keeps a last line without a break', () => {
    expect(applyToContent(file, [{ from: 2, to: 3, toContent: '' }])).toBe('a\nd\ne\n');
    expect(applyToContent('x\ny', [{ from: 2, to: 2, toContent: 'z' }])).toBe('x\nz');
  });
});

describe('inapplicableReason', () => {
  const facts: SuggestionFacts = {
    applied: false,
    mergeRequestState: 'opened',
    sourceBranchExists: true,
    linesAbove: 0,
    linesBelow: 0,
    fromContent: 'a\n',
    toContent: 'b\n',
    currentContent: 'a\n',
    filePath: 'src/a.ts',
  };

  it('is null for an appliable suggestion', () => {
    expect(inapplicableReason(facts)).toBeNull();
  });

  it("gives GitLab's reason, in GitLab's order", () => {
    expect(inapplicableReason({ ...facts, applied: true, mergeRequestState: 'merged' })).toBe(SUGGESTION_MESSAGES.applied);
    expect(inapplicableReason({ ...facts, mergeRequestState: 'merged' })).toBe('This merge request was merged. To apply this suggestion, edit this file directly.');
    expect(inapplicableReason({ ...facts, mergeRequestState: 'closed' })).toBe('This merge request is closed. To apply this suggestion, edit this file directly.');
    expect(inapplicableReason({ ...facts, sourceBranchExists: false, currentContent: null })).toBe("Can't apply as the source branch was deleted.");
    expect(inapplicableReason({ ...facts, linesBelow: 101 })).toBe('Cannot apply as this suggestion spans more than 100 lines.');
    expect(inapplicableReason({ ...facts, currentContent: 'changed\n' })).toBe("Can't apply as this line was changed in a more recent version.");
    expect(inapplicableReason({ ...facts, linesAbove: 1, currentContent: null })).toBe("Can't apply as these lines were changed in a more recent version.");
    expect(inapplicableReason({ ...facts, toContent: 'a\n' })).toBe('This suggestion already matches its content.');
    expect(inapplicableReason({ ...facts, filePath: 'book.ipynb' })).toBe("This file was modified for readability, and can't accept suggestions. Edit it directly.");
  });
});

describe('suggestionCommitMessage', () => {
  const values = {
    branchName: 'feature',
    filePaths: ['b.txt', 'a.txt'],
    projectName: 'Demo',
    projectPath: 'demo',
    userFullName: 'Ada Lovelace',
    username: 'ada',
    suggestionsCount: 3,
    coAuthors: [] as { name: string; email: string }[],
  };

  it("uses GitLab's default and drops the empty trailer line", () => {
    expect(suggestionCommitMessage(undefined, values)).toBe('Apply 3 suggestion(s) to 2 file(s)');
    expect(suggestionCommitMessage('  ', values)).toBe('Apply 3 suggestion(s) to 2 file(s)');
  });

  it('names the other authors as co-authors', () => {
    const message = suggestionCommitMessage(undefined, { ...values, coAuthors: [{ name: 'Bob', email: 'bob@example.com' }] });
    expect(message).toBe('Apply 3 suggestion(s) to 2 file(s)\n\nCo-authored-by: Bob <bob@example.com>');
  });

  it('fills the placeholders of a custom message and leaves unknown ones', () => {
    expect(suggestionCommitMessage('%{username} on %{branch_name}: %{file_paths} %{nope}', values)).toBe('ada on feature: a.txt, b.txt %{nope}');
  });
});
