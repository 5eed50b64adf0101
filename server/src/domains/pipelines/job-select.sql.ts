/** A job row with its `needs` (name, artifacts, optional) as one JSON array. */
export const JOB_SELECT = `SELECT b.*, coalesce((SELECT json_agg(json_build_object('name', n.name, 'artifacts', n.artifacts, 'optional', n.optional) ORDER BY n.id)
    FROM ci_build_needs n WHERE n.build_id = b.id), '[]'::json) AS needs FROM ci_builds b`;
