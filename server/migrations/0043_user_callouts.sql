-- GitLab's user callouts: the hints a user dismissed (by GitLab's feature names), so that they
-- stay dismissed on every page and every device.
CREATE TABLE user_callouts (
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  feature_name text NOT NULL,
  dismissed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, feature_name)
);
