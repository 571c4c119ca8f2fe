#!/usr/bin/env bash
# `npm test`: every check of the project, the independent ones at the same time on this 2-core machine.
#   1. type check, lint (boundaries, dead exports) and the build of the workbench, side by side;
#   2. unit, component and server tests in one Vitest run (its workers take files from every project,
#      the files with real actors too: each worker's actors have loopback addresses of their own);
#   3. side by side: the browser tests against the build (two files at a time, see e2e/vitest.config.ts)
#      and the server tests that open a database again, on PostgreSQL (scripts/with-test-postgres.sh:
#      TEST_DATABASE_URL, or a private cluster of the installed postgresql package; skipped with the
#      reason printed when neither, or when VIGIL_TEST_POSTGRES=0). The browser tests wait on the
#      browser and the director much of the time, so the PostgreSQL pass fits beside them; its actors
#      use another loopback network (VIGIL_TEST_LOOPBACK_RUN, tests/server/loopback.ts) than the
#      directors' local actors (127.0.0.2, 127.0.0.3).
# Each step's output is printed whole once it ends, so side-by-side steps never interleave; a failing
# step stops the run after its group and sets the exit code.
set -u
cd "$(dirname "$0")/.."
logs=$(mktemp -d "${TMPDIR:-/tmp}/vigil-test-XXXXXX")
trap 'rm -rf "$logs"' EXIT

# step NAME COMMAND...: runs COMMAND with its output in the log of NAME; prints it with the verdict.
step() {
  local name=$1 start=$SECONDS
  shift
  # In a subshell, so that `times` reports the CPU of this step's processes only (those it waited for).
  (
    "$@" >"$logs/$name.log" 2>&1
    local rc=$?
    times >"$logs/$name.cpu"
    exit "$rc"
  )
  local rc=$?
  # `times` prints the children's user and system time as e.g. "4m3.210s 0m20.500s".
  local cpu
  cpu=$(awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%.0f", t }' <(tail -n 1 "$logs/$name.cpu"))
  {
    cat "$logs/$name.log"
    if [ "$rc" -eq 0 ]; then echo "== $name passed in $((SECONDS - start)) s ($cpu s of CPU)"; else echo "== $name FAILED (exit $rc) after $((SECONDS - start)) s ($cpu s of CPU)"; fi
  } >"$logs/$name.report"
  return "$rc"
}

# group NAME...: starts the named steps (functions step_NAME) together and waits for all of them.
group() {
  local names=("$@") pids=() failed=0 name i
  for name in "${names[@]}"; do
    step "$name" "step_$name" &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || failed=1
    cat "$logs/${names[$i]}.report"
  done
  return "$failed"
}

step_typecheck() { npm run --silent typecheck; }
step_lint() { npm run --silent lint; }
step_build() { npm run --silent build; }
step_vitest() { VIGIL_TEST_LOOPBACK_RUN=1 npx vitest run --project 'unit*' --project 'server*'; }
step_postgres() {
  if [ "${VIGIL_TEST_POSTGRES:-1}" = 0 ]; then
    echo "PostgreSQL pass SKIPPED: VIGIL_TEST_POSTGRES=0."
    return 0
  fi
  # vitest.config.ts leaves out the server test files that open no database when TEST_DATABASE_URL is set.
  VIGIL_TEST_LOOPBACK_RUN=2 bash scripts/with-test-postgres.sh npx vitest run --project 'server*'
}
step_e2e() { npm run --silent test:e2e; }

total=$SECONDS
group typecheck lint build && group vitest && group e2e postgres
rc=$?
times >"$logs/total.cpu"
cpu=$(tail -n 1 "$logs/total.cpu" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%.0f", t }')
if [ "$rc" -eq 0 ]; then echo "== npm test passed in $((SECONDS - total)) s ($cpu s of CPU)"; else echo "== npm test FAILED after $((SECONDS - total)) s ($cpu s of CPU)"; fi
exit "$rc"
