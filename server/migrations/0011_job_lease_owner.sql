-- Which process holds a running job's lease (its connections' application_name): a job whose
-- process is gone is claimed again at once instead of when its five-minute lease ends.
ALTER TABLE background_jobs ADD COLUMN locked_by text;
