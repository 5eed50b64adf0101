/**
 * The limits GitLab enforces on a pipeline configuration, with GitLab's defaults for a
 * self-managed instance. Each one has its own clear error (see the compiler's tests).
 */

/** `max_yaml_size_bytes` application setting default: the raw text and the parsed data. */
export const MAX_YAML_SIZE_BYTES = 1024 * 1024;
/** `max_yaml_depth` application setting default: nesting depth of the parsed data. */
export const MAX_YAML_DEPTH = 100;
/** Aliases a document may use; a billion-laughs document exceeds it long before expanding. */
export const MAX_YAML_ALIAS_COUNT = 1000;
/** `ci_max_includes` application setting default: included files, nested ones counted. */
export const MAX_INCLUDES = 150;
/**
 * Total bytes of the main file and every included file (`ci_max_total_yaml_size_bytes` default is
 * `max_yaml_size_bytes` times `ci_max_includes`).
 */
export const MAX_TOTAL_YAML_SIZE_BYTES = MAX_YAML_SIZE_BYTES * MAX_INCLUDES;
/** `extends` ancestors a job may have (`Extendable::Entry::MAX_NESTING_LEVELS`). */
export const MAX_EXTENDS_DEPTH = 10;
/** `!reference` resolution nesting (`Yaml::Tags::Resolver::MAX_NESTING`... GitLab's 10 levels). */
export const MAX_REFERENCE_DEPTH = 10;
/** `ci_max_needs` default: entries of one job's `needs`. */
export const MAX_NEEDS_PER_JOB = 50;
/** `ci_pipeline_size` plan limit: GitLab's self-managed default plan has no limit (0); we cap it. */
export const MAX_JOBS_PER_PIPELINE = 2000;
/** `parallel` maximum and `parallel: matrix` permutations maximum. */
export const MAX_PARALLEL = 200;
/** `rules:changes` / `rules:exists` patterns per rule. */
export const MAX_RULE_PATTERNS = 50;
/** `start_in` may be at most one week. */
export const MAX_START_IN_SECONDS = 7 * 24 * 3600;
/** Nodes the configuration may have once `!reference` tags are replaced (a reference bomb stops here). */
export const MAX_RESOLVED_NODES = 1_000_000;
