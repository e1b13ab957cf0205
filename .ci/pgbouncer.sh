#!/usr/bin/env bash
# PgBouncer (Debian's package) in TRANSACTION mode on 127.0.0.1:${1:-6432} in front of the local
# PostgreSQL, for running the instance and race tests through it. Idempotent.
#   statement_timeout is a startup parameter PgBouncer 1.18 does not forward: it is ignored here,
#   so the public module's timeout does not apply through this pooler (docs/operations.md, "Running
#   several instances", for setting it on the server side instead).
set -euo pipefail
PORT=${1:-6432}
DIR=/var/tmp/adonis-rbac-pgbouncer-$PORT
if [ -f "$DIR/pgbouncer.pid" ]; then kill "$(cat "$DIR/pgbouncer.pid")" 2>/dev/null || true; sleep 1; fi
rm -rf "$DIR"
install -d -o postgres -g postgres "$DIR"
cat >"$DIR/pgbouncer.ini" <<CONF
[databases]
* = host=127.0.0.1 port=5432

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $PORT
unix_socket_dir =
auth_type = trust
auth_file = $DIR/userlist.txt
pool_mode = transaction
max_client_conn = 500
default_pool_size = 20
ignore_startup_parameters = extra_float_digits,statement_timeout
logfile = $DIR/pgbouncer.log
pidfile = $DIR/pgbouncer.pid
CONF
echo '"postgres" ""' >"$DIR/userlist.txt"
chown postgres:postgres "$DIR"/*
runuser -u postgres -- pgbouncer -d "$DIR/pgbouncer.ini"
for _ in $(seq 1 20); do
  psql -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -Atc 'SELECT 1' >/dev/null 2>&1 && break
  sleep 0.5
done
echo "pgbouncer on 127.0.0.1:$PORT: $(psql -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -Atc 'SELECT 1') (transaction mode)"
