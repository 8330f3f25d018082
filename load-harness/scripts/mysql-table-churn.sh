#!/usr/bin/env bash
# Churns the table caches of the running stack's MariaDB masters, then prints every MariaDB server's resident memory
# and what MariaDB counts in use (Memory_used): each shard database's pins, object_directory and user_likes_pins counted
# and an empty INSERT ... SELECT into id_sequences, --rounds times over (~6 000 table opens per master and round
# against the few hundred tables cached). Read-only in effect: nothing is written.
#
#   load-harness/scripts/mysql-table-churn.sh [--rounds N] [--masters PORT,PORT] [--servers PORT,PORT,...]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=2 masters=13306,13316 servers=13306,13307,13316,13317
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --masters) masters=$2; shift 2 ;;
    --servers) servers=$2; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "mysql-table-churn: unknown option $1 (--help)" >&2; exit 2 ;;
  esac
done
secrets=.pinfeed/run/dev-secrets.properties
[ -r "$secrets" ] || { echo "mysql-table-churn: no $secrets: start the stack with ./pinfeed up or ./pinfeed dev" >&2; exit 1; }
password=$(grep '^mysql.password=' "$secrets" | cut -d= -f2-)
sql() { MYSQL_PWD="$password" mariadb --no-defaults -h127.0.0.1 -P"$1" -upinfeed -N -B "${@:2}"; }
for port in ${masters//,/ }; do
  dbs=$(sql "$port" -e "SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE 'db%'")
  for ((r = 1; r <= rounds; r++)); do
    for d in $dbs; do
      echo "SELECT COUNT(*) FROM $d.pins; SELECT COUNT(*) FROM $d.object_directory; SELECT COUNT(*) FROM $d.user_likes_pins;"
      echo "INSERT INTO $d.id_sequences SELECT * FROM $d.id_sequences WHERE 1 = 0;"
    done | sql "$port" > /dev/null
    echo "mysql-table-churn: 127.0.0.1:$port round $r of $rounds done" >&2
  done
done
sleep 3 # jemalloc returns freed pages within a second
for port in ${servers//,/ }; do
  pid=$(ss -ltnpH "sport = :$port" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
  used=$(sql "$port" -e "SHOW GLOBAL STATUS LIKE 'Memory_used'" | awk '{printf "%d", $2 / 1048576}')
  echo "127.0.0.1:$port  rss $(( $(awk '/VmRSS/ {print $2}' "/proc/$pid/status") / 1024 )) MB  Memory_used $used MB"
done
