/**
 * Protected branch names may hold `*` wildcards (`release/*`, `*-stable`).
 * Matching is a linear-time glob walk, never a regular expression built
 * from user input (GitLab's CVE-2024-2800 was a ReDoS in exactly this).
 */
export function matchesBranchPattern(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === name[n]) {
      p++;
      n++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = n;
    } else if (star !== -1) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}
