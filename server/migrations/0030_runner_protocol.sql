-- The runner protocol's queue (domains/runner-protocol/): a job becoming pending is announced on
-- the `tributary_ci_queue` channel, so that every process holding a runner's long-polling
-- `POST /api/v4/jobs/request` wakes up and looks for it, instead of polling the table in a loop.
-- PostgreSQL delivers the notification after commit, to every listening process.
CREATE FUNCTION tributary_notify_ci_job_pending() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('tributary_ci_queue', NEW.id::text); RETURN NULL; END $$;

CREATE TRIGGER ci_builds_notify_pending AFTER INSERT OR UPDATE OF status ON ci_builds
  FOR EACH ROW WHEN (NEW.status = 'pending' AND NEW.type = 'build') EXECUTE FUNCTION tributary_notify_ci_job_pending();

-- the stuck-jobs sweep reads running jobs by their last update
CREATE INDEX ci_builds_running ON ci_builds (updated_at) WHERE status IN ('running', 'canceling');
