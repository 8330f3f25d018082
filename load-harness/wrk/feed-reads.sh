#!/usr/bin/env bash
# ./pinfeed bench reads: closed-loop HTTP reads of the running ./pinfeed dev stack with wrk, each step
# beside the floor (the same server's /health/live) measured in the same run. See docs/benchmarks.md.
set -euo pipefail

usage() {
  cat <<'USAGE'
usage: ./pinfeed bench reads [--connections N] [--duration S] [--readers N] [--steps LIST] [--warmup S] [--url URL]

Measures feed-service of the running ./pinfeed dev stack with wrk (closed loop), every request a random
demo reader's own read with his token:
  floor   GET /health/live: the same server's floor, the baseline of every share
  first   his home feed's first page (limit=25): generation, journal, materialized read
  next    the page after his first page's cursor (collected just before this step)
  user    his user object (GET /v1/users/{id})
Prints one row per step: requests/s, p50 / p90 / p99 / max ms, non-2xx answers, share of the floor.

  --connections N  concurrent connections (default 16)
  --threads N      wrk threads (default 2)
  --duration S     seconds per step (default 15)
  --readers N      random demo users (default 400)
  --seed N         which random demo users (default 1)
  --steps LIST     comma-separated steps, in order (default floor,first,next,user)
  --warmup S       seconds of first pages before the steps, not reported (default 10; 0 measures a cold start)
  --url URL        feed-service (default http://127.0.0.1:8081)
USAGE
}

connections=16; threads=2; duration=15; readers=400; seed=1; steps="floor,first,next,user"; warmup=10
url="http://127.0.0.1:8081"
while [ $# -gt 0 ]; do
  case "$1" in
    --connections) connections="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --readers) readers="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --steps) steps="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --url) url="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) printf 'pinfeed: bench reads: unknown option %s (--help lists them)\n' "$1" >&2; exit 2 ;;
  esac
done
for n in "$connections" "$threads" "$duration" "$readers" "$seed" "$warmup"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { printf 'pinfeed: bench reads: not a number: %s\n' "$n" >&2; exit 2; }
done
for s in ${steps//,/ }; do
  case "$s" in floor|first|next|user) ;; *) printf 'pinfeed: bench reads: --steps: unknown step %s\n' "$s" >&2; exit 2 ;; esac
done
command -v wrk >/dev/null 2>&1 || { echo "pinfeed: bench reads: wrk is not installed (./pinfeed bench installs it)" >&2; exit 1; }
curl -sf -o /dev/null "$url/health/ready" || { echo "pinfeed: bench reads: feed-service is not ready at $url (run ./pinfeed dev)" >&2; exit 1; }

here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
say() { printf '[bench] %s\n' "$*" >&2; }

say "tokens of $readers random demo readers"
"$here/../../pinfeed" token --demo-readers "$readers" --seed "$seed" > "$work/readers"

# The milliseconds of a wrk duration (e.g. 635.00us, 12.5ms, 1.02s, 2m).
to_ms() {
  awk -v d="$1" 'BEGIN {
    if (d ~ /us$/) { sub(/us$/, "", d); printf "%.2f", d / 1000 }
    else if (d ~ /ms$/) { sub(/ms$/, "", d); printf "%.2f", d }
    else if (d ~ /m$/) { sub(/m$/, "", d); printf "%.0f", d * 60000 }
    else if (d ~ /s$/) { sub(/s$/, "", d); printf "%.1f", d * 1000 }
    else printf "?" }'
}

floor_rps=""
run_step() { # step seconds -> prints "rps p50 p90 p99 max non2xx"
  local step="$1" secs="$2" out
  if [ "$step" = floor ]; then
    out="$(wrk -t"$threads" -c"$connections" -d"${secs}s" --latency "$url/health/live")"
  else
    out="$(wrk -t"$threads" -c"$connections" -d"${secs}s" --latency -s "$here/reads.lua" "$url" -- "$work/readers.$step" "$step")"
  fi
  echo "$out" > "$work/$step.out"
  local rps p50 p90 p99 max errors
  rps="$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")"
  p50="$(to_ms "$(awk '$1 == "50%" {print $2}' <<<"$out")")"
  p90="$(to_ms "$(awk '$1 == "90%" {print $2}' <<<"$out")")"
  p99="$(to_ms "$(awk '$1 == "99%" {print $2}' <<<"$out")")"
  max="$(to_ms "$(awk '$1 == "Latency" && NF >= 5 {print $4; exit}' <<<"$out")")"
  errors="$(awk '/Non-2xx or 3xx responses:/ {n += $5} /Socket errors:/ {gsub(/,/, ""); n += $4 + $6 + $8 + $10} END {print n + 0}' <<<"$out")"
  echo "$rps $p50 $p90 $p99 $max $errors"
}

cp "$work/readers" "$work/readers.first"; cp "$work/readers" "$work/readers.user"
if [ "$warmup" -gt 0 ]; then
  say "warm-up: ${warmup} s of first pages"
  run_step first "$warmup" >/dev/null
fi

printf '| step (%s connections, %s s) | requests/s | p50 / p90 / p99 / max ms | non-2xx | share of the floor |\n' "$connections" "$duration"
printf '|---|---:|---:|---:|---:|\n'
for step in ${steps//,/ }; do
  if [ "$step" = next ]; then
    say "cursors of the readers' first pages"
    : > "$work/readers.next"
    while read -r id token; do
      cursor="$(curl -s -H "Authorization: Bearer $token" "$url/v1/users/$id/feed?limit=25" | grep -o '"cursor":"[^"]*"' | head -1 | cut -d'"' -f4 || true)"
      [ -n "$cursor" ] && echo "$id $token $cursor" >> "$work/readers.next"
    done < "$work/readers"
    say "$(wc -l < "$work/readers.next") of $readers readers have a next page"
    [ -s "$work/readers.next" ] || { echo "pinfeed: bench reads: no reader has a next page" >&2; exit 1; }
  fi
  say "$step: ${duration} s"
  read -r rps p50 p90 p99 max errors <<<"$(run_step "$step" "$duration")"
  [ "$step" = floor ] && floor_rps="$rps"
  share="—"
  [ -n "$floor_rps" ] && share="$(awk -v a="$rps" -v b="$floor_rps" 'BEGIN {printf "%.3f", a / b}')"
  printf '| %s | %s | %s / %s / %s / %s | %s | %s |\n' "$step" "$rps" "$p50" "$p90" "$p99" "$max" "$errors" "$share"
done
