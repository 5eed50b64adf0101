-- Caches of database reads (platform/db/cached-read.ts) must hear of writes that other
-- processes commit, and of writes made outside the server (psql, a restore). A statement
-- trigger on each table a cache reads announces the table's name; PostgreSQL delivers the
-- notification after commit, once per transaction and table. platform/db/write-watch.ts listens.
CREATE FUNCTION tributary_notify_table_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('tributary_table_writes', TG_TABLE_NAME); RETURN NULL; END $$;

CREATE TRIGGER projects_notify_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON projects FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_table_write();
CREATE TRIGGER routes_notify_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON routes FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_table_write();
CREATE TRIGGER namespaces_notify_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON namespaces FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_table_write();
CREATE TRIGGER project_members_notify_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON project_members FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_table_write();
CREATE TRIGGER group_members_notify_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON group_members FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_table_write();
CREATE TRIGGER users_notify_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_table_write();
CREATE TRIGGER merge_requests_notify_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON merge_requests FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_table_write();
CREATE TRIGGER merge_request_diffs_notify_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON merge_request_diffs FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_table_write();
CREATE TRIGGER merge_request_blocks_notify_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON merge_request_blocks FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_table_write();
CREATE TRIGGER merge_intents_notify_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON merge_intents FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_table_write();
CREATE TRIGGER notes_notify_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON notes FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_table_write();
CREATE TRIGGER protected_branches_notify_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON protected_branches FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_table_write();
CREATE TRIGGER protected_branch_access_levels_notify_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON protected_branch_access_levels FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_table_write();
