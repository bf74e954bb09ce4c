#!/usr/bin/env bash
# hayate against gpsusi on a local shogi-server, through `hayate csa` on both sides:
# hayate plays itself (no --engine), gpsusi is bridged (--engine /usr/games/gpsusi).
# One game at a time. Phases: Fischer games, byoyomi games, then two games of which the
# first has its connection cut (the server is killed mid-game and restarted) so that
# the clients must go on to the second.
#
# usage: tools/csa-games.sh SHOGI_SERVER_DIR OUT_DIR
#   SHOGI_SERVER_DIR  a checkout of github.com/shogi-server/shogi-server (not copied
#                     into this repository; needs `ruby` and `ruby-webrick`)
#   OUT_DIR           records: OUT_DIR/<phase>/{hayate,gpsusi}/ (CSA files and
#                     games.jsonl), the clients' output, the server's log and records
# environment (defaults):
#   FISCHER=30-1F FISCHER_GAMES=10   game-name time part: 30 s + 1 s increment
#   BYOYOMI=10-2  BYOYOMI_GAMES=10   10 s + 2 s byoyomi
#   DROP=1        1: play the cut-connection phase
#   PORT=4081  MARGIN_MS=500  RESIGN=2000 (both sides resign at -RESIGN cp, 3 moves)
#   HAYATE=target/release/hayate  GPSUSI=/usr/games/gpsusi
# Then: python3 tools/csa-figures.py OUT_DIR
set -euo pipefail

SERVER_SRC=${1:?usage: tools/csa-games.sh SHOGI_SERVER_DIR OUT_DIR}
OUT=${2:?usage: tools/csa-games.sh SHOGI_SERVER_DIR OUT_DIR}
FISCHER=${FISCHER:-30-1F}
FISCHER_GAMES=${FISCHER_GAMES:-10}
BYOYOMI=${BYOYOMI:-10-2}
BYOYOMI_GAMES=${BYOYOMI_GAMES:-10}
DROP=${DROP:-1}
PORT=${PORT:-4081}
MARGIN_MS=${MARGIN_MS:-500}
RESIGN=${RESIGN:-2000}
HAYATE=$(realpath "${HAYATE:-target/release/hayate}")
GPSUSI=${GPSUSI:-/usr/games/gpsusi}
EVENT=csatest

mkdir -p "$OUT"
OUT=$(realpath "$OUT")
# A copy of the server that listens on loopback only (the original binds every address).
SERVER="$OUT/shogi-server"
rm -rf "$SERVER"
cp -r "$(realpath "$SERVER_SRC")" "$SERVER"
sed -i 's/config\[:BindAddress\] = nil.*/config[:BindAddress] = "127.0.0.1"/' "$SERVER/shogi-server"

server_pid=
start_server() {
    # --least-time-per-move 0: the CSA rule since 2014 (moves timed in whole seconds,
    # rounded down), as floodgate plays; under the old rule (every move charged at least
    # 1 s) a 1 s byoyomi could not be played at all.
    (cd "$SERVER" && exec ruby shogi-server --least-time-per-move 0 "$EVENT" "$PORT" \
        >> "$OUT/server.log" 2>&1) &
    server_pid=$!
    for _ in $(seq 50); do
        if ss -ltn | grep -q "127.0.0.1:$PORT "; then return 0; fi
        sleep 0.2
    done
    echo "shogi-server did not start; see $OUT/server.log" >&2
    return 1
}
stop_server() {
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
        server_pid=
    fi
}
trap stop_server EXIT

# Starts both clients for GAMES games of GAME_NAME (pids in $h and $g); the phase's
# records go to OUT/PHASE.
play() {
    local phase=$1 game_name=$2 games=$3
    mkdir -p "$OUT/$phase"
    "$HAYATE" csa --host 127.0.0.1 --port "$PORT" --id hayate \
        --password "$EVENT-$game_name,h" --games "$games" --margin-ms "$MARGIN_MS" \
        --resign "$RESIGN" --option Threads=1 --out "$OUT/$phase/hayate" \
        > "$OUT/$phase/hayate.log" 2> "$OUT/$phase/hayate.err" &
    h=$!
    "$HAYATE" csa --host 127.0.0.1 --port "$PORT" --id gpsusi \
        --password "$EVENT-$game_name,g" --games "$games" --margin-ms "$MARGIN_MS" \
        --resign "$RESIGN" --engine "$GPSUSI" --option Thread=1 --inc-as-byoyomi --out "$OUT/$phase/gpsusi" \
        > "$OUT/$phase/gpsusi.log" 2> "$OUT/$phase/gpsusi.err" &
    g=$!
}
finish() {
    local rc=0
    wait "$h" || rc=$?; echo "hayate client: exit $rc"
    rc=0
    wait "$g" || rc=$?; echo "gpsusi client: exit $rc"
    cat "$OUT/$1/hayate.log"
}

start_server
if [ "$FISCHER_GAMES" -gt 0 ]; then
    play fischer "$FISCHER" "$FISCHER_GAMES"
    finish fischer
fi
if [ "$BYOYOMI_GAMES" -gt 0 ]; then
    play byoyomi "$BYOYOMI" "$BYOYOMI_GAMES"
    finish byoyomi
fi
if [ "$DROP" = 1 ]; then
    started=$(grep -c "game started" "$OUT/server.log" || true)
    play drop "$BYOYOMI" 2
    # Cut the first game mid-way: wait for its start and some moves, kill the server,
    # and start it again for the second game.
    for _ in $(seq 300); do
        if [ "$(grep -c "game started" "$OUT/server.log" || true)" -gt "$started" ]; then
            break
        fi
        sleep 0.2
    done
    sleep 15
    echo "cutting the connection: killing shogi-server mid-game"
    kill -9 "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=
    sleep 1
    start_server
    finish drop
fi
