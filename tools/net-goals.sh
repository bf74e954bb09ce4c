#!/usr/bin/env bash
# The two goal matches of a new built-in net (issue 45): at byoyomi 300, one thread each,
#   1. YaneuraOu NNUE carrying NEW against YaneuraOu NNUE carrying hkp-q5, the net of
#      2026-11-26: the net judged in the strongest search at hand;
#   2. hayate carrying NEW against hayate carrying hkp-q5 (EvalFile), the same build.
# hkp-q5 is taken from this repository's history (commit e158a5c) and checked against the
# sha256 that commit recorded. Openings are lines FIRST..LAST of OPENINGS (one `position`
# line each), each played with both colours: take lines neither the round's data nor its
# gate used, e.g. the tail of the round's openings-gate.sfen beyond its gate's games / 2.
#
#   tools/net-goals.sh NEW_NET YANEURAOU OPENINGS FIRST LAST OUT [WHICH]
#
# NEW_NET: a net file (nn.bin); YANEURAOU: a YaneuraOu NNUE binary built for its shape
# (../shared/tools/build-yaneuraou.sh); OUT: a folder for the two matches' records
# (OUT/yaneuraou, OUT/hayate; a rerun resumes them); WHICH: both (default), yaneuraou or
# hayate. Needs the cores to itself (a byoyomi match), zstd, and a release build
# (target/release/hayate, made if missing). Each match prints its W-L-D and Elo.
set -euo pipefail

if [ $# -lt 6 ]; then
  sed -n '2,18p' "$0" >&2
  exit 2
fi
new=$1 yo=$2 openings=$3 first=$4 last=$5 out=$6 which=${7:-both}
repo=$(cd "$(dirname "$0")/.." && pwd)
hayate=$repo/target/release/hayate
q5_commit=e158a5c

for f in "$new" "$yo" "$openings"; do
  [ -f "$f" ] || { echo "net-goals: no file $f" >&2; exit 2; }
done
case $which in both | yaneuraou | hayate) ;; *) echo "net-goals: WHICH is both, yaneuraou or hayate" >&2; exit 2 ;; esac
[ -x "$hayate" ] || (cd "$repo" && cargo build --release)

mkdir -p "$out/nets/new" "$out/nets/q5"
cp "$new" "$out/nets/new/nn.bin"
git -C "$repo" show "$q5_commit:nets/builtin.nnue.zst" | zstd -dc > "$out/nets/q5/nn.bin"
want=$(git -C "$repo" show "$q5_commit:nets/README.md" | sed -n 's/^builtin sha256: //p')
got=$(sha256sum "$out/nets/q5/nn.bin" | cut -d' ' -f1)
[ "$want" = "$got" ] || { echo "net-goals: hkp-q5 from $q5_commit has sha256 $got, not $want" >&2; exit 1; }

sed -n "${first},${last}p" "$openings" > "$out/openings.sfen"
lines=$(wc -l < "$out/openings.sfen")
[ "$lines" -gt 0 ] || { echo "net-goals: lines $first..$last of $openings are empty" >&2; exit 2; }
games=$((2 * lines))

common=(--byoyomi 300 --openings "$out/openings.sfen" --games "$games" --concurrency 2
  --resign-score 3000 --max-moves 320 --ready-timeout 120000 --quiet)

run() { # run NAME ARGS...: a match into OUT/NAME, resumed when it was begun
  local name=$1
  shift
  if [ -f "$out/$name/games.jsonl" ]; then
    "$hayate" match --resume "$out/$name" --games "$games" --concurrency 2
  else
    "$hayate" match "${common[@]}" "$@" --out "$out/$name"
  fi
}

if [ "$which" != hayate ]; then
  echo "== YaneuraOu with the new net against YaneuraOu with hkp-q5, $games games"
  run yaneuraou \
    --option BookFile=no_book --option NetworkDelay=0 --option NetworkDelay2=0 \
    --option RoundUpToFullSecond=false --option FV_SCALE=16 --option USI_Hash=64 \
    --option Threads=1 \
    --engine "$yo" --name yo-new --option "EvalDir=$out/nets/new" \
    --engine "$yo" --name yo-q5 --option "EvalDir=$out/nets/q5"
fi
if [ "$which" != yaneuraou ]; then
  echo "== hayate with the new net against hayate with hkp-q5, $games games"
  run hayate \
    --option USI_OwnBook=false --option NetworkDelay=0 --option NetworkDelay2=0 \
    --option USI_Hash=64 \
    --engine "$hayate" --name hayate-new --option "EvalFile=$out/nets/new/nn.bin" \
    --engine "$hayate" --name hayate-q5 --option "EvalFile=$out/nets/q5/nn.bin"
fi
