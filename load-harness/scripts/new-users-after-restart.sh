#!/usr/bin/env bash
# A batch of new users right after a restart: restarts the four MariaDB servers and ingest-api of the running stack
# (./pinfeed up or ./pinfeed dev), then POSTs one /v1/events batch of new users and reports its time and the
# transactions it committed on each MySQL master. After a restart every id sequence and table cache is cold: this is
# what the first requests after a deploy, and a resumed demo load, pay. See docs/benchmarks.md.
set -euo pipefail

usage() {
  cat <<'USAGE'
usage: load-harness/scripts/new-users-after-restart.sh [--rounds N] [--users N] [--busy N] [--only-ingest] [--tag T]

Run from the root of a checkout whose stack is running. Each round: restart mysql001/002 (masters and
replicas) and ingest-api, then one POST /v1/events of --users UserCreated events with fresh names.
Prints per round: HTTP status, seconds, accepted events, transactions committed on each master.

  --rounds N  rounds (default 3)
  --users N   users per batch, at most 1000 (default 1000)
  --busy N    N busy loops (`yes`) on the box during the batch, to load its cores (default 0)
  --only-ingest  restart ingest-api alone (its id sequences cold, MariaDB's caches warm)
  --tag T     a label printed on each line (default the current commit)
USAGE
}

rounds=3; users=1000; busy=0; restarted="mysql001-master mysql001-replica mysql002-master mysql002-replica ingest-api"; tag=$(git rev-parse --short HEAD 2>/dev/null || echo "?")
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --users) users="$2"; shift 2 ;;
    --busy) busy="$2"; shift 2 ;;
    --only-ingest) restarted="ingest-api"; shift ;;
    --tag) tag="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "new-users-after-restart: unknown option $1 (--help lists them)" >&2; exit 2 ;;
  esac
done
[ -x ./pinfeed ] || { echo "new-users-after-restart: run it from the root of a checkout" >&2; exit 2; }
secrets=.pinfeed/run/dev-secrets.properties
[ -f "$secrets" ] || { echo "new-users-after-restart: no $secrets: start the stack first (./pinfeed up)" >&2; exit 2; }
password=$(grep '^mysql.password=' "$secrets" | cut -d= -f2-)

# The sequence number of a master's last binlog transaction (one domain, one server: the GTID's last part).
last_transaction() {
  MYSQL_PWD="$password" mysql -h127.0.0.1 -P"$1" -upinfeed -N -e 'select @@gtid_binlog_pos' | awk -F- '{print $NF}'
}

body=$(mktemp); answer=$(mktemp)
trap 'rm -f "$body" "$answer"; pkill -P $$ yes 2>/dev/null || true' EXIT
for round in $(seq 1 "$rounds"); do
  for server in $restarted; do
    out=$(./pinfeed restart "$server" 2>&1) || { echo "new-users-after-restart: restarting $server failed: $out" >&2; exit 1; }
  done
  token=$(./pinfeed token)
  prefix="n$(date +%s%N | cut -c6-15)"
  python3 -c "import json,sys; print(json.dumps({'events': [{'type': 'UserCreated', 'username': f'{sys.argv[1]}_{i}'} for i in range(int(sys.argv[2]))]}))" \
    "$prefix" "$users" > "$body"
  before1=$(last_transaction 13306); before2=$(last_transaction 13316)
  for _ in $(seq 1 "$busy"); do yes > /dev/null & done
  result=$(curl -s -o "$answer" -w '%{http_code} %{time_total}' -X POST http://127.0.0.1:8080/v1/events \
    -H "Authorization: Bearer $token" -H 'Content-Type: application/json' --data-binary @"$body")
  pkill -P $$ yes 2>/dev/null || true
  after1=$(last_transaction 13306); after2=$(last_transaction 13316)
  accepted=$(grep -o '"status":"accepted"' "$answer" | wc -l)
  read -r status seconds <<< "$result"
  printf '%s round %d (restarted: %s; %d busy loops): HTTP %s in %.2f s, %d of %d accepted, transactions mysql001 %d, mysql002 %d\n' \
    "$tag" "$round" "${restarted// /, }" "$busy" "$status" "$seconds" "$accepted" "$users" $((after1 - before1)) $((after2 - before2))
done
