#!/usr/bin/env bash
# `npm test`: every check of the project, the independent ones at the same time on this 2-core machine.
#   1. type check, lint (boundaries, dead exports) and the build of the workbench, side by side;
#   2. unit, component and server tests in one Vitest run (its workers take files from every project,
#      the files with real actors too: each worker's actors have loopback addresses of their own);
#   3. side by side: the browser tests against the build (two files at a time, see e2e/vitest.config.ts)
#      and the server files whose code differs on PostgreSQL again on PostgreSQL (POSTGRES_FILES in
#      vitest.config.ts; scripts/with-test-postgres.sh: TEST_DATABASE_URL, or a private cluster of the
#      installed postgresql package; skipped with the reason printed when neither, or when
#      VIGIL_TEST_POSTGRES=0; VIGIL_TEST_POSTGRES=all runs every server file that opens a database). The
#      browser tests wait on the browser and the director much of the time, so that pass fits beside
#      them; its actors use another loopback network (VIGIL_TEST_LOOPBACK_RUN, tests/server/loopback.ts)
#      than the directors' local actors (127.0.0.2, 127.0.0.3).
# Each step's output is printed whole once it ends (one at a time, so steps never interleave), with its
# wall time and CPU seconds, and each group with the whole machine's busy CPU seconds; a failing step stops the
# run after its group and sets the exit code.
set -u
cd "$(dirname "$0")/.."
logs=$(mktemp -d "${TMPDIR:-/tmp}/vigil-test-XXXXXX")
trap 'rm -rf "$logs"' EXIT

# seconds TIMES_LINE: the children's user and system time of `times` (e.g. "4m3.210s 0m20.500s") in seconds.
seconds() { awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%.0f", t }' <<<"$1"; }

# show FILE: prints a step's report whole, never in the middle of another's.
show() { flock "$logs/print.lock" cat "$1"; }

# step NAME: runs step_NAME with its output in the log of NAME, then prints it with the verdict.
step() {
  local name=$1 start=$SECONDS
  # In a subshell, so that `times` reports the CPU of this step's processes only (those it waited for).
  (
    "step_$name" >"$logs/$name.log" 2>&1
    local rc=$?
    times >"$logs/$name.cpu"
    exit "$rc"
  )
  local rc=$?
  local cpu extra
  cpu=$(seconds "$(tail -n 1 "$logs/$name.cpu")")
  # The private PostgreSQL cluster's server processes are not this step's children: with-test-postgres.sh reports their CPU.
  extra=$(cat "$logs/$name.server-cpu" 2>/dev/null || echo 0)
  cpu=$((cpu + extra))
  {
    cat "$logs/$name.log"
    if [ "$rc" -eq 0 ]; then echo "== $name passed in $((SECONDS - start)) s ($cpu s of CPU)"; else echo "== $name FAILED (exit $rc) after $((SECONDS - start)) s ($cpu s of CPU)"; fi
  } >"$logs/$name.report"
  show "$logs/$name.report"
  return "$rc"
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
  # vitest.config.ts keeps to POSTGRES_FILES when TEST_DATABASE_URL is set (all database files with VIGIL_TEST_POSTGRES=all).
  VIGIL_TEST_PG_CPU_FILE="$logs/postgres.server-cpu" VIGIL_TEST_LOOPBACK_RUN=2 bash scripts/with-test-postgres.sh npx vitest run --project 'server*'
}
step_e2e() { npm run --silent test:e2e; }

# busy_ticks: the machine's busy CPU time so far in clock ticks (/proc/stat: all but idle and iowait), 0
# where there is no /proc. The steps' own CPU seconds leave out processes their shells never reap (the
# browser tests' Chromium renderers, PostgreSQL's backends), so each group also prints what the whole
# machine spent: the figure that bounds a run's wall time on two cores.
busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat 2>/dev/null || echo 0; }

# group NAME...: starts the named steps together and waits for all of them.
group() {
  local pids=() name pid failed=0 start=$SECONDS ticks
  ticks=$(busy_ticks)
  for name in "$@"; do
    step "$name" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  local busy=$((($(busy_ticks) - ticks) / $(getconf CLK_TCK))) wall=$((SECONDS - start))
  local IFS=,
  flock "$logs/print.lock" echo "== group $*: ${wall} s, the machine busy ${busy} s of CPU ($((wall > 0 ? busy * 100 / wall : 0))% of one core)"
  return "$failed"
}

total=$SECONDS
total_ticks=$(busy_ticks)
# Measured (eighth session): starting the browser tests beside the Vitest run, both at full priority,
# took 1,334 s and 1,400 s of CPU against 869 s and 1,102 s, with time-outs in both: the steps'
# directors, actors and Chromium contend for the two cores. So the steps run in groups again.
group typecheck lint build && group vitest && group e2e postgres
rc=$?
total_busy=$((($(busy_ticks) - total_ticks) / $(getconf CLK_TCK)))
times >"$logs/total.cpu"
cpu=$(seconds "$(tail -n 1 "$logs/total.cpu")")
cpu=$((cpu + $(cat "$logs/postgres.server-cpu" 2>/dev/null || echo 0)))
if [ "$rc" -eq 0 ]; then echo "== npm test passed in $((SECONDS - total)) s ($cpu s of CPU in its steps, the machine busy $total_busy s)"; else echo "== npm test FAILED after $((SECONDS - total)) s ($cpu s of CPU in its steps, the machine busy $total_busy s)"; fi
exit "$rc"
