-- The merge widget lists the environments a merge request's head (or merge) commit was
-- deployed to: deployments are found by project and commit.
CREATE INDEX deployments_project_sha ON deployments (project_id, sha);
