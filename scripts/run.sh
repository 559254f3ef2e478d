#!/usr/bin/env bash
# The main job: installs what it needs, builds hoglake, starts `hoglake serve`
# with the embedded default (a private PostgreSQL under ./hoglake-data) and
# runs a short demo against it, then keeps serving until Ctrl-C.
# Usage (as root): bash scripts/run.sh        (HOGLAKE_LISTEN=host:port to move it)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

install_apt_packages
build_tree "$HOGLAKE_ROOT/build" -- hoglake

hoglake="$HOGLAKE_ROOT/build/src/cli/hoglake"
data_dir="${HOGLAKE_DATA_DIR:-$HOGLAKE_ROOT/hoglake-data}"
listen="${HOGLAKE_LISTEN:-127.0.0.1:8080}"
ready="$data_dir/.ready"
mkdir -p "$data_dir"
rm -f "$ready"

log "starting hoglake serve --data-dir $data_dir --listen $listen"
"$hoglake" serve --data-dir "$data_dir" --listen "$listen" --ready-file "$ready" &
server=$!
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null' EXIT INT TERM
for _ in $(seq 1 600); do
  [ -f "$ready" ] && break
  kill -0 $server 2>/dev/null || { echo "hoglake serve failed to start" >&2; exit 1; }
  sleep 0.1
done
url=$(cat "$ready")

hl() {  # runs and shows one CLI command against the server
  printf '\n$ hoglake %s\n' "$*"
  "$hoglake" --url "$url" "$@"
}

log "demo: the pyhoglake quickstart through the hoglake CLI"
catalog="demo$(date +%s)"
table="$catalog.analytics.events"
hl catalog create "$catalog"
hl namespace create "$catalog.analytics"
hl table create "$table" --column event_id:long:not-null --column team_id:int \
  --column ts:timestamptz --column kind:string --column 'amount:decimal(10,2)' \
  --column note:string --partition-by team_id --partition-by 'month(ts)'
hl append "$table" "$HOGLAKE_ROOT/docs/examples/events.csv" --author demo --message "first load"
hl files "$table"
hl changes "$table" --from 0
hl offset set etl "$table" head
hl offset get etl "$table"
hl snapshots "$catalog"
hl table show "$table"

log "demo: SQL over the lake"
printf '\n$ hoglake sql --data-dir %s --catalog %s "SELECT team_id, count(*) …"\n' "$data_dir" "$catalog"
"$hoglake" sql --data-dir "$data_dir" --catalog "$catalog" \
  "SELECT team_id, kind, count(*) AS events, sum(amount) AS total
     FROM analytics.events WHERE amount > 0 GROUP BY 1, 2 ORDER BY total DESC LIMIT 5"
query="SELECT kind, count(*) AS events FROM $catalog.analytics.events GROUP BY 1 ORDER BY 2 DESC"
printf '\n$ curl %s/v1/query -d '"'"'{"sql": "%s"}'"'"'   (the Hotdata-compatible query API)\n' "$url" "$query"
curl -sS "$url/v1/query" -H 'content-type: application/json' -d "{\"sql\": \"$query\"}"
echo

log "demo: the columnar core — an Arrow IPC stream of every column type"
"$hoglake" arrow demo "$data_dir/demo.arrows"
"$hoglake" arrow schema "$data_dir/demo.arrows"
"$hoglake" arrow cat "$data_dir/demo.arrows"

log "hoglake is serving at $url (data in $data_dir); Ctrl-C stops it"
wait $server
