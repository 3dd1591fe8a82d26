#!/usr/bin/env bash
# Install PostgreSQL if missing (Debian packages), start a server listening on
# 127.0.0.1 only, create the user and database "laizi", and print the URL to use
# as the last line of standard output, e.g.
#   postgresql+psycopg://laizi:laizi@127.0.0.1:5432/laizi
# Usage: bash scripts/start_postgres.sh   (as root; env PGPORT, LAIZI_PG_DB to change)
set -euo pipefail

PORT="${PGPORT:-5432}"
DB="${LAIZI_PG_DB:-laizi}"
USER_NAME="laizi"
PASS="laizi"

log() { printf '%s\n' "$*" >&2; }

if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    log "installing postgresql (apt)"
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
  else
    log "PostgreSQL is not installed and cannot be installed here (need root and apt-get)"
    exit 1
  fi
fi

BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
VER=$(basename "$(dirname "$BIN")")

as_pg() {
  if [ "$(id -un)" = postgres ]; then "$@"; else su postgres -s /bin/bash -c "$(printf '%q ' "$@")"; fi
}

if command -v pg_ctlcluster >/dev/null 2>&1; then
  # Debian cluster tooling: make sure a cluster exists, listens on loopback only, and runs.
  if ! pg_lsclusters -h 2>/dev/null | awk '{print $1" "$2}' | grep -q "^$VER main$"; then
    log "creating cluster $VER/main"
    pg_createcluster "$VER" main -p "$PORT" >&2
  fi
  CONF="/etc/postgresql/$VER/main/postgresql.conf"
  sed -i "s/^#\?listen_addresses.*/listen_addresses = '127.0.0.1'/" "$CONF"
  sed -i "s/^#\?port = .*/port = $PORT/" "$CONF"
  status=$(pg_lsclusters -h | awk -v v="$VER" '$1==v && $2=="main" {print $4}')
  if [ "$status" != "online" ]; then
    log "starting PostgreSQL $VER on 127.0.0.1:$PORT"
    pg_ctlcluster "$VER" main start >&2
  fi
else
  # Plain binaries: a private data directory under /tmp.
  DATA="${LAIZI_PG_DATA:-/tmp/laizi-pgdata}"
  if [ ! -d "$DATA" ]; then
    mkdir -p "$DATA"; chown postgres "$DATA" 2>/dev/null || true
    as_pg "$BIN/initdb" -D "$DATA" -A trust >&2
  fi
  if ! as_pg "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
    as_pg "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -o "-c listen_addresses=127.0.0.1 -p $PORT -k /tmp" -w start >&2
  fi
fi

# Wait until it accepts connections.
for _ in $(seq 1 60); do
  if as_pg psql -h 127.0.0.1 -p "$PORT" -d postgres -Atc "select 1" >/dev/null 2>&1 \
     || as_pg psql -p "$PORT" -d postgres -Atc "select 1" >/dev/null 2>&1; then
    break
  fi
  sleep 0.5
done

psql_pg() { as_pg psql -p "$PORT" -d postgres -v ON_ERROR_STOP=1 -Atc "$1"; }
if [ "$(psql_pg "select 1 from pg_roles where rolname='$USER_NAME'")" != 1 ]; then
  psql_pg "create role $USER_NAME login password '$PASS'" >&2
else
  psql_pg "alter role $USER_NAME login password '$PASS'" >/dev/null
fi
if [ "$(psql_pg "select 1 from pg_database where datname='$DB'")" != 1 ]; then
  psql_pg "create database $DB owner $USER_NAME" >&2
fi

echo "postgresql+psycopg://$USER_NAME:$PASS@127.0.0.1:$PORT/$DB"
