-- Cached project lookups (domains/projects/project-lookup-cache.ts) must hear of writes that
-- other processes commit, and of writes made outside the server (psql, a restore). A statement
-- trigger on each table the lookup reads announces them; PostgreSQL delivers the notification
-- after commit, once per transaction and table.
CREATE FUNCTION tributary_notify_project_lookups() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('tributary_project_lookups', TG_TABLE_NAME); RETURN NULL; END $$;

CREATE TRIGGER projects_notify_lookups AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON projects FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_project_lookups();
CREATE TRIGGER routes_notify_lookups AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON routes FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_project_lookups();
CREATE TRIGGER namespaces_notify_lookups AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON namespaces FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_project_lookups();
CREATE TRIGGER project_members_notify_lookups AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON project_members FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_project_lookups();
CREATE TRIGGER group_members_notify_lookups AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON group_members FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_project_lookups();
