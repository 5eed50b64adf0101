-- A merge request's test comparison reads only the failed and errored cases of its two pipelines
-- (and counts the rest): this index finds them without reading a report's passing cases.
CREATE INDEX ci_test_cases_failures ON ci_test_cases (pipeline_id, suite_name, classname, name) WHERE status IN ('failed', 'error');
