#!/usr/bin/env bash
# A PRIVATE, throw-away PostgreSQL server for the tests. It never touches the machine's
# configuration: no /etc/postgresql, no system cluster, no system service.
#
#   eval "$(bash scripts/start_postgres.sh start)"
#       initdb into a new temporary directory, start a server on 127.0.0.1 only, on a
#       free port of its own, with a random password; prints shell assignments:
#         export LAIZI_TEST_PG_URL=postgresql+psycopg://laizi:<pw>@127.0.0.1:<port>/laizi
#         export LAIZI_TEST_PG_DIR=<the temporary directory>
#   bash scripts/start_postgres.sh halt   DIR   stop the server, keep its data (fault tests)
#   bash scripts/start_postgres.sh resume DIR   start it again on the same port
#   bash scripts/start_postgres.sh stop   DIR   stop the server and remove DIR
#
# initdb refuses to run as root: as root the cluster belongs to the unprivileged user
# "postgres" (created by the Debian package) or, when absent, a system user "laizipg"
# created for it. PostgreSQL binaries: the newest /usr/lib/postgresql/*/bin, or
# whatever pg_ctl is on PATH; installed with apt when missing and running as root.
set -euo pipefail

log() { printf '%s\n' "$*" >&2; }

find_bin() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$d" ] && [ -x "$d/initdb" ]; then echo "$d"; return 0; fi
  if command -v pg_ctl >/dev/null 2>&1; then dirname "$(command -v pg_ctl)"; return 0; fi
  return 1
}

BIN=$(find_bin || true)
if [ -z "$BIN" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    log "installing postgresql (apt)"
    apt-get update -qq >&2
    # The package would start its system cluster; a temporary policy-rc.d tells
    # invoke-rc.d not to (only when the machine has none of its own).
    own_policy=0
    if [ ! -e /usr/sbin/policy-rc.d ]; then
      printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; own_policy=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2 || true
    [ "$own_policy" = 1 ] && rm -f /usr/sbin/policy-rc.d
    BIN=$(find_bin)
  else
    log "PostgreSQL is not installed and cannot be installed here (need root and apt-get)"
    exit 1
  fi
fi

# The unprivileged owner when running as root.
RUN_AS=""
if [ "$(id -u)" = 0 ]; then
  if id -u postgres >/dev/null 2>&1; then
    RUN_AS=postgres
  else
    id -u laizipg >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin laizipg
    RUN_AS=laizipg
  fi
fi

as_owner() {
  if [ -n "$RUN_AS" ]; then runuser -u "$RUN_AS" -- "$@"; else "$@"; fi
}

free_port() {
  python3 - <<'EOF'
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()
EOF
}

pg_start() {  # DIR
  local dir=$1 port
  port=$(cat "$dir/port")
  as_owner "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir/sock -c fsync=off -c full_page_writes=off" \
    start >&2
}

pg_halt() {  # DIR
  local dir=$1
  [ -f "$dir/data/postmaster.pid" ] || return 0
  as_owner "$BIN/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >&2 || true
}

check_dir() {  # refuse anything that is not one of ours
  local dir=${1:-}
  if [ -z "$dir" ] || [ ! -f "$dir/laizi-private-pg" ]; then
    log "not a private test cluster directory: '${dir}'"
    exit 2
  fi
}

cmd=${1:-start}
case "$cmd" in
  start)
    DIR=$(mktemp -d "${TMPDIR:-/tmp}/laizi-pg.XXXXXX")
    touch "$DIR/laizi-private-pg"
    mkdir -p "$DIR/sock"
    PASS=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
    (umask 077; printf '%s\n' "$PASS" > "$DIR/pwfile")
    free_port > "$DIR/port"
    chmod 700 "$DIR"
    if [ -n "$RUN_AS" ]; then chown -R "$RUN_AS" "$DIR"; fi
    as_owner "$BIN/initdb" -D "$DIR/data" -U laizi --pwfile="$DIR/pwfile" \
      --auth=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >"$DIR/initdb.log" 2>&1 \
      || { cat "$DIR/initdb.log" >&2; rm -rf "$DIR"; exit 1; }
    rm -f "$DIR/pwfile"
    if ! pg_start "$DIR"; then
      cat "$DIR/server.log" >&2 || true
      rm -rf "$DIR"
      exit 1
    fi
    PORT=$(cat "$DIR/port")
    PGPASSWORD="$PASS" "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U laizi laizi >&2
    echo "export LAIZI_TEST_PG_URL=postgresql+psycopg://laizi:$PASS@127.0.0.1:$PORT/laizi"
    echo "export LAIZI_TEST_PG_DIR=$DIR"
    ;;
  halt)
    check_dir "${2:-}"; pg_halt "$2" ;;
  resume)
    check_dir "${2:-}"; pg_start "$2" ;;
  stop)
    check_dir "${2:-}"; pg_halt "$2"; rm -rf "$2" ;;
  *)
    log "usage: $0 start | halt DIR | resume DIR | stop DIR"; exit 2 ;;
esac
