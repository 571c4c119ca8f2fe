#!/usr/bin/env bash
# with-test-postgres.sh COMMAND...: runs COMMAND with TEST_DATABASE_URL pointing at a PostgreSQL server.
#   - TEST_DATABASE_URL already set: that server (it must be reachable; the role must be allowed to
#     create databases);
#   - otherwise, when PostgreSQL's server programs are installed (Debian's postgresql package), a
#     private throw-away cluster in a temporary directory: initdb, started on a Unix socket only (no
#     port taken, no system cluster touched), durability off (fsync, synchronous_commit) since it holds
#     test data only, and removed afterwards. As root (CI) the cluster runs as the `postgres` user;
#   - neither: prints why the PostgreSQL pass is skipped and exits 0 without running COMMAND.
# Exit code: COMMAND's.
set -u
if [ $# -eq 0 ]; then echo "usage: $0 COMMAND..." >&2; exit 2; fi

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  exec "$@"
fi

bindir=""
if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then bindir=$(pg_config --bindir); fi
if [ -z "$bindir" ]; then
  # Debian installs the server programs under /usr/lib/postgresql/<major>/bin (not on PATH): the newest.
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then bindir=$d; break; fi
  done
fi
if [ -z "$bindir" ]; then
  echo "PostgreSQL pass SKIPPED: TEST_DATABASE_URL is not set and no PostgreSQL server programs (initdb, pg_ctl) are installed."
  echo "  Install Debian's postgresql package (apt-get install -y postgresql; .ci/run does) or set TEST_DATABASE_URL."
  exit 0
fi

run_as=()
if [ "$(id -u)" -eq 0 ]; then
  # initdb and postgres refuse to run as root.
  if ! id postgres >/dev/null 2>&1; then
    echo "PostgreSQL pass SKIPPED: running as root and there is no 'postgres' user to run the server as."
    exit 0
  fi
  run_as=(runuser -u postgres --)
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/vigil-test-pg-XXXXXX")
chmod 755 "$dir"
[ ${#run_as[@]} -gt 0 ] && chown postgres: "$dir"
# The server's CPU (the postmaster and the backends it reaped), which the caller's `times` cannot see
# (pg_ctl detaches it): printed, and written to VIGIL_TEST_PG_CPU_FILE when set (scripts/test.sh adds it
# to the step's CPU).
server_cpu() {
  local pid ticks
  pid=$(head -n 1 "$dir/data/postmaster.pid" 2>/dev/null) || return 0
  ticks=$(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$pid/stat" 2>/dev/null) || return 0
  [ -n "$ticks" ] || return 0
  local secs=$(( (ticks + $(getconf CLK_TCK) / 2) / $(getconf CLK_TCK) ))
  echo "PostgreSQL server: $secs s of CPU"
  [ -n "${VIGIL_TEST_PG_CPU_FILE:-}" ] && echo "$secs" >"$VIGIL_TEST_PG_CPU_FILE"
  return 0
}
stop() {
  server_cpu
  "${run_as[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1
  rm -rf "$dir"
}
trap stop EXIT

started=$SECONDS
if ! "${run_as[@]}" "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1; then
  echo "PostgreSQL pass FAILED: initdb did not run:"; cat "$dir/initdb.log"; exit 1
fi
# VIGIL_TEST_PG_OPTS: more server options (a diagnosis aid, e.g. pg_stat_statements for bench/pg-statements.ts).
opts="-c listen_addresses='' -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400 -c shared_buffers=64MB ${VIGIL_TEST_PG_OPTS:-}"
if ! "${run_as[@]}" "$bindir/pg_ctl" -D "$dir/data" -o "$opts" -l "$dir/server.log" -w -t 60 start >/dev/null 2>&1; then
  echo "PostgreSQL pass FAILED: the server did not start:"; cat "$dir/server.log"; exit 1
fi
version=$("$bindir/postgres" --version)
echo "PostgreSQL pass: private cluster ($version) on socket $dir, ready in $((SECONDS - started)) s"
export TEST_DATABASE_URL="postgresql://postgres@localhost/postgres?host=$dir"
"$@"
