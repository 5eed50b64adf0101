-- A project's avatar (GitLab's PUT /projects/:id with a multipart `avatar`). The bytes live in
-- their own table, so the project rows every request reads stay small; projects.avatar_filename
-- is what the entity's avatar_url needs.
ALTER TABLE projects ADD COLUMN avatar_filename text;

CREATE TABLE project_avatars (
  project_id bigint PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  content_type text NOT NULL,
  data bytea NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
