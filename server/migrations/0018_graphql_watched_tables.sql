-- GraphQL answers (api/graphql/response-cache.ts) now show merge request assignees and
-- reviewers and discussion threads: their tables announce writes like every table a cached
-- read depends on (migration 0010, platform/db/write-watch.ts).
CREATE TRIGGER merge_request_assignees_notify_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON merge_request_assignees FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_table_write();
CREATE TRIGGER merge_request_reviewers_notify_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON merge_request_reviewers FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_table_write();
CREATE TRIGGER discussions_notify_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON discussions FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_table_write();
