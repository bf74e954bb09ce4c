#!/bin/bash
# A burst on a lent many-core machine (the device tool): thread scaling of hayate and
# YaneuraOu on the same net (tools/thread_scaling.py at 1-16 threads), then deep
# self-play data (10,000 nodes a position, the built-in net) on every core until END
# seconds have passed, written to $OUT/deep.NN in 15 MB pieces of whole records.
#
# The machine has no Rust: carry the binaries in .dev/ (ignored by .git/info/exclude):
#   xz -c target/release/hayate > .dev/hayate.xz        (the net inside: 24 MB packed)
#   cp yaneuraou-NNUE .dev/                                (build-yaneuraou.sh, AVX2)
#   head -n N openings.sfen > .dev/openings-data.sfen     (openings no gate uses)
# then run `bash tools/device-burst.sh` with carry [".dev"]; YaneuraOu's nn.bin is unpacked
# there from nets/builtin.nnue.zst. Locally, a short check:
#   OUT=/tmp/t THREADS=1,2 MOVETIME=300 END=70 CONC=2 bash tools/device-burst.sh
T0=$(date +%s)
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
THREADS=${THREADS:-1,2,4,8,16}
MOVETIME=${MOVETIME:-2000}
END=${END:-535}
CONC=${CONC:-$(nproc)}
log() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('.dev/hayate.xz'), open('/tmp/hayate','wb'))" || xz -dc .dev/hayate.xz > /tmp/hayate
chmod +x /tmp/hayate
mkdir -p /tmp/eval
python3 -c "import pyarrow as pa; open('/tmp/eval/nn.bin','wb').write(pa.input_stream('nets/builtin.nnue.zst', compression='zstd').read())" || zstd -dc nets/builtin.nnue.zst > /tmp/eval/nn.bin
sha256sum /tmp/eval/nn.bin /tmp/hayate
nproc; lscpu | grep -i "model name\|^CPU(s)\|Thread(s)\|Core(s)\|Socket\|NUMA node(s)\|L3"
grep -o 'avx2\|avx512bw\|bmi2' /proc/cpuinfo | sort | uniq -c
log scaling
timeout 240 python3 tools/thread_scaling.py --threads "$THREADS" --movetime "$MOVETIME" \
  --engine hayate /tmp/hayate --option USI_Hash=256 --option USI_OwnBook=false \
    --option NetworkDelay=0 --option NetworkDelay2=0 \
  --engine yaneuraou .dev/yaneuraou-NNUE --option USI_Hash=256 --option BookFile=no_book \
    --option NetworkDelay=0 --option NetworkDelay2=0 --option EvalDir=/tmp/eval --option FV_SCALE=16 \
  > "$OUT/scaling.tsv" 2> "$OUT/scaling.err"
cat "$OUT/scaling.tsv"
LEFT=$(( END - ($(date +%s) - T0) - 25 ))
log "gensfen for $LEFT s, $CONC games at a time"
timeout $(( LEFT + 45 )) /tmp/hayate gensfen --out /tmp/deep.bin --games 10000000 --nodes 10000 \
  --seed 1801 --concurrency "$CONC" --evalfile internal --openings .dev/openings-data.sfen \
  --seconds "$LEFT" 2>&1 | tail -c 300000 > "$OUT/gensfen.log"
tail -3 "$OUT/gensfen.log"
size=$(stat -c %s /tmp/deep.bin)
truncate -s $(( size / 40 * 40 )) /tmp/deep.bin
split -b 15000000 -d /tmp/deep.bin "$OUT/deep."
sha256sum /tmp/deep.bin
log "done: $(( size / 40 )) positions"; ls -la "$OUT"
