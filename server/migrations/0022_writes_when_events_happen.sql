-- System notes and suggestion rows are now written when what causes them happens; reading
-- notes and discussions writes nothing. A database from before can hold events, versions and
-- diff notes that no list had turned into notes or suggestion rows yet: jobs write them now.
--
-- System notes: one notes.system_notes job per merge request with an event or version that has
-- no note yet; it writes them dated when they happened. merge_request_system_note_sources keeps
-- every event and version to one note.
INSERT INTO background_jobs (queue, payload)
SELECT 'notes.system_notes', jsonb_build_object('mergeRequestId', m.id)
  FROM merge_requests m
 WHERE EXISTS (SELECT 1 FROM merge_request_events e
                WHERE e.merge_request_id = m.id
                  AND NOT EXISTS (SELECT 1 FROM merge_request_system_note_sources s WHERE s.source = 'event' AND s.source_id = e.id))
    OR EXISTS (SELECT 1 FROM merge_request_diffs v
                WHERE v.merge_request_id = m.id
                  AND NOT EXISTS (SELECT 1 FROM merge_request_system_note_sources s WHERE s.source = 'version' AND s.source_id = v.id));

-- Suggestions: one suggestions.catch_up job when a diff note mentions a suggestion and has no
-- rows for its current body (the job skips those without a ```suggestion fence).
INSERT INTO background_jobs (queue, payload)
SELECT 'suggestions.catch_up', '{}'::jsonb
 WHERE EXISTS (SELECT 1 FROM notes n
                WHERE n.type = 'DiffNote' AND NOT n.system AND n.body LIKE '%suggestion%'
                  AND NOT EXISTS (SELECT 1 FROM suggestions s WHERE s.note_id = n.id AND s.note_body_sha = encode(sha256(convert_to(n.body, 'UTF8')), 'hex')));
