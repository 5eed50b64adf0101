-- The merge request REST entity's upvotes and downvotes are now cached reads (its reads are kept
-- per process until a table they read is written): award_emoji announces writes like every table
-- a cached read depends on (migration 0010, platform/db/write-watch.ts).
CREATE TRIGGER award_emoji_notify_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON award_emoji FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_table_write();
