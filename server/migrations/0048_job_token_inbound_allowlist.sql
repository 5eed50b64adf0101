-- GitLab's CI/CD job token inbound allowlist (ci_job_token_project_scope_links, direction inbound):
-- the projects whose job tokens may read this project beyond what an anonymous caller may. A job
-- token always reaches its own project; any other project must list the job's project here.
CREATE TABLE ci_job_token_inbound_allowlist (
  project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  allowed_project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  added_by_id bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, allowed_project_id)
);
CREATE INDEX ci_job_token_inbound_allowlist_allowed ON ci_job_token_inbound_allowlist (allowed_project_id);

-- `needs: project:` reads the latest successful job of a name in another project.
CREATE INDEX ci_builds_project_name_success ON ci_builds (project_id, name, id DESC) WHERE status = 'success' AND type = 'build';
