-- The refresh after a push is enqueued in the push's own transaction (a reaction to
-- `repository.pushed`), so one push makes one job without a claim per process.
DROP TABLE merge_request_push_refreshes;
