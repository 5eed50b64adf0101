-- Which process is carrying out a merge (its connections' application_name): the other servers on
-- the database settle an unfinished intent once no session of that name is left, instead of
-- waiting for a process to restart.
ALTER TABLE merge_intents ADD COLUMN owner text;
