/**
 * GitLab's global ids (`gid://gitlab/MergeRequest/42`): every GraphQL `id` field and every
 * `…ID` argument uses them, so GitLab clients can pass ids between calls unchanged. Pure.
 */
export type GlobalIdType =
  | 'MergeRequest'
  | 'Project'
  | 'User'
  | 'AwardEmoji'
  // a merge request's car on a merge train
  | 'MergeTrains::Car'
  // approval rules: a merge request's own, or the project's when it is in force
  | 'ApprovalMergeRequestRule'
  | 'ApprovalProjectRule'
  // a note's class: a plain comment, a thread note, a diff thread note (GitLab's STI classes)
  | 'Note'
  | 'DiscussionNote'
  | 'DiffNote'
  // a discussion's class: one comment, a thread, a diff thread
  | 'IndividualNoteDiscussion'
  | 'Discussion'
  | 'DiffDiscussion'
  // CI/CD (GitLab's class names)
  | 'Ci::Pipeline'
  | 'Ci::Stage'
  | 'Ci::PipelineVariable'
  | 'Ci::Build'
  | 'Ci::Bridge'
  | 'Ci::JobArtifact'
  // GitLab's JobID: a job of any class
  | 'CommitStatus';

const PATTERN = /^gid:\/\/gitlab\/([A-Za-z:]+)\/(\d{1,18})$/;
/** Any global id: a class name and a model id (discussion ids are 40 hex characters). */
const ANY_PATTERN = /^gid:\/\/gitlab\/([A-Za-z][A-Za-z0-9:]*)\/([^/\s]+)$/;

export function globalId(type: GlobalIdType, id: number | string): string {
  return `gid://gitlab/${type}/${id}`;
}

/** The numeric id of a global id of one of `types`, or null for anything else (never throws). */
export function parseGlobalId(value: unknown, types: readonly GlobalIdType[]): { type: GlobalIdType; id: number } | null {
  if (typeof value !== 'string') return null;
  const match = PATTERN.exec(value);
  if (!match || !types.includes(match[1] as GlobalIdType)) return null;
  const id = Number(match[2]);
  return Number.isSafeInteger(id) && id > 0 ? { type: match[1] as GlobalIdType, id } : null;
}

/** A typed id argument (`NoteID`, `DiscussionID` …): its name in errors and the classes it admits. */
export interface GlobalIdScalar {
  /** the model GitLab names in "does not represent an instance of …" */
  model: string;
  /** the classes whose ids it admits (subclasses included, as GitLab's GlobalIDType does) */
  classes: readonly string[];
}

export const NOTE_ID: GlobalIdScalar = { model: 'Note', classes: ['Note', 'DiscussionNote', 'DiffNote', 'LegacyDiffNote', 'SyntheticNote'] };
export const DISCUSSION_ID: GlobalIdScalar = { model: 'Discussion', classes: ['Discussion', 'IndividualNoteDiscussion', 'DiffDiscussion', 'LegacyDiffDiscussion', 'OutOfContextDiscussion'] };
export const MERGE_REQUEST_ID: GlobalIdScalar = { model: 'MergeRequest', classes: ['MergeRequest'] };
export const USER_ID: GlobalIdScalar = { model: 'User', classes: ['User'] };
/** GitLab's GlobalIDType[Label]: a project's or a group's label. */
export const LABEL_ID: GlobalIdScalar = { model: 'Label', classes: ['Label', 'ProjectLabel', 'GroupLabel'] };
export const MILESTONE_ID: GlobalIdScalar = { model: 'Milestone', classes: ['Milestone'] };
/** What a note can hang on in GitLab; Tributary has merge requests only, the rest name nothing here. */
export const NOTEABLE_ID: GlobalIdScalar = { model: 'Noteable', classes: ['MergeRequest', 'Issue', 'Epic', 'Snippet', 'ProjectSnippet', 'PersonalSnippet', 'Commit', 'DesignManagement::Design', 'AlertManagement::Alert', 'WikiPage::Meta'] };
/** What can be awarded an emoji in GitLab; Tributary has merge requests and their notes. */
export const AWARDABLE_ID: GlobalIdScalar = { model: 'Awardable', classes: ['MergeRequest', 'Issue', 'Epic', 'Snippet', 'ProjectSnippet', 'PersonalSnippet', ...NOTE_ID.classes] };

/** A global id a client sent, checked as GitLab's GlobalIDType#coerce_input checks it. */
export interface ParsedGlobalId {
  type: string;
  /** the model id as sent: digits for records, 40 hex characters for discussions */
  id: string;
}

export class GlobalIdError extends Error {}

/**
 * Parses a typed id argument, or throws GitLab's coercion messages: `"x" is not a valid
 * Global ID` for anything that is not a global id, `"gid://gitlab/Project/1" does not
 * represent an instance of Note` for an id of another class.
 */
export function coerceGlobalId(value: unknown, scalar: GlobalIdScalar): ParsedGlobalId {
  const match = typeof value === 'string' ? ANY_PATTERN.exec(value) : null;
  if (!match) throw new GlobalIdError(`${JSON.stringify(value) ?? String(value)} is not a valid Global ID`);
  if (!scalar.classes.includes(match[1]!)) throw new GlobalIdError(`${JSON.stringify(value)} does not represent an instance of ${scalar.model}`);
  return { type: match[1]!, id: match[2]! };
}

/** The record id of a parsed global id, or null when it cannot name a record (names nothing). */
export function recordId(parsed: ParsedGlobalId): number | null {
  if (!/^\d{1,18}$/.test(parsed.id)) return null;
  const id = Number(parsed.id);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
