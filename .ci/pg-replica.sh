#!/usr/bin/env bash
# A streaming replica of the local PostgreSQL (127.0.0.1:5432) on 127.0.0.1:${1:-5433}, for the
# `replica` test suite: pg_basebackup -R into a folder of its own, started with pg_ctl as postgres.
# Idempotent: an earlier replica on that port is stopped and made again.
set -euo pipefail
PORT=${1:-5433}
DIR=/var/tmp/adonis-rbac-replica-$PORT
VERSION=$(ls /etc/postgresql | sort -n | tail -n1)
BIN=/usr/lib/postgresql/$VERSION/bin
HBA=/etc/postgresql/$VERSION/main/pg_hba.conf

# Replication connections from loopback (the "all" database entry does not cover them).
if ! grep -Eq '^host\s+replication\s+all\s+127\.0\.0\.1/32\s+trust' "$HBA"; then
  echo 'host replication all 127.0.0.1/32 trust' >>"$HBA"
  pg_ctlcluster --skip-systemctl-redirect "$VERSION" main reload
fi

if [ -f "$DIR/postmaster.pid" ]; then
  runuser -u postgres -- "$BIN/pg_ctl" -D "$DIR" -m immediate stop || true
fi
rm -rf "$DIR"
install -d -m 700 -o postgres -g postgres "$DIR"
runuser -u postgres -- "$BIN/pg_basebackup" -h 127.0.0.1 -p 5432 -U postgres -D "$DIR" -R -X stream -c fast
# Debian keeps the primary's configuration in /etc: the copy gets a minimal one of its own.
cat >"$DIR/postgresql.conf" <<CONF
port = $PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '/tmp'
hot_standby = on
max_connections = 100
CONF
cat >"$DIR/pg_hba.conf" <<CONF
local all all trust
host all all 127.0.0.1/32 trust
CONF
chown postgres:postgres "$DIR/postgresql.conf" "$DIR/pg_hba.conf"
runuser -u postgres -- "$BIN/pg_ctl" -D "$DIR" -l "$DIR.log" -w start
for _ in $(seq 1 30); do
  [ "$(psql -h 127.0.0.1 -p "$PORT" -U postgres -Atc 'SELECT pg_is_in_recovery()' 2>/dev/null)" = t ] && break
  sleep 1
done
echo "replica on 127.0.0.1:$PORT: in recovery = $(psql -h 127.0.0.1 -p "$PORT" -U postgres -Atc 'SELECT pg_is_in_recovery()')"
