-- Outdated diff threads: after a push, every diff thread's position is traced
-- onto the new version (domains/notes/position-tracer.ts); a thread whose line changed stays on
-- its old version and is outdated. domains/notes/outdated-discussions.service.ts writes these.

-- GitLab's project setting: a push that makes a thread outdated resolves it (resolved_by_push).
ALTER TABLE projects ADD COLUMN resolve_outdated_diff_discussions boolean NOT NULL DEFAULT false;

-- The thread's state, shared by all its notes (replies written later inherit it for free):
-- outdated: a push changed the commented line (GitLab: DiffNote#active? is false);
-- change_position: where that change shows, on the diff between the old and the new head
-- (or base), for outdated_line_change_path. Null when no diff shows it (GitLab too).
ALTER TABLE discussions ADD COLUMN outdated boolean NOT NULL DEFAULT false;
ALTER TABLE discussions ADD COLUMN change_position jsonb;
