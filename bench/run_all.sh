#!/usr/bin/env bash
# The measurements behind docs/benchmarks.md, in the order they were run (one at a time: the
# machine has 2 cores). Results: bench/results/*.jsonl (JSON lines) and *.log (the printed tables).
# Peers need `bash bench/setup_peers.sh` first (else they are skipped with a message).
set -uo pipefail
cd "$(dirname "$0")/.."
py=.venv/bin/python
out=bench/results
mkdir -p "$out"
step() { local name=$1; shift; echo "== $name: $* (start $(date -u +%T), load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$out/$name.log"; "$@" 2>&1 | grep -v -e '^\s*at ' -e WARN -e 'log4j' -e 'setLogLevel' >> "$out/$name.log"; echo "== end $(date -u +%T), load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/$name.log"; }
step scaling $py bench/scaling.py rows --rows 1000000 --master 'local[2]' --json $out/scaling.jsonl
step scaling $py bench/scaling.py rows --rows 1000000 --master 'local[1]' --json $out/scaling.jsonl
step scaling $py bench/scaling.py length --rows 1000000 --legs 1 2 4 --json $out/scaling.jsonl
step sase $py bench/sase_spark.py table1 --windows 500 1000 2000 --strategies next any --json $out/sase.jsonl
step sase $py bench/sase_spark.py table1 --windows 500 --strategies contiguity --timeout 300 --json $out/sase.jsonl
step sase $py bench/sase_spark.py figure5 --json $out/sase.jsonl
step engines $py bench/engines_postponing.py
step engines $py bench/engines_sase_plus.py --windows 500
step scaling $py bench/scaling.py rows --rows 5000000 --master 'local[2]' --json $out/scaling.jsonl
step scaling $py bench/scaling.py rows --rows 10000000 --master 'local[2]' --variants floor v_shape --json $out/scaling.jsonl
# peers last: bench/peers.py now warms the floor up before timing it (an earlier run in the
# middle of this sequence did not, and was discarded)
step peers $py bench/peers.py --rows 1000000 --symbols 1000 --repeat 1 --json $out/peers.jsonl
# then, once the machine was quieter, at one commit:
step scaling_quiet $py bench/scaling.py rows --rows 1000000 5000000 --variants floor v_shape rising --json $out/scaling_quiet.jsonl
# session 2 (issue 4 second pass: column-wise regex fast path, bitmask column, Kleene block
# unrolling), on a quiet machine, at one commit:
step stock_quiet2 $py bench/stock_patterns.py --rows 1000000 --symbols 1000 --repeat 3 --json $out/stock_quiet2.jsonl
step peers2 $py bench/peers.py --rows 1000000 --symbols 1000 --repeat 2 --json $out/peers2.jsonl
step peers2 $py bench/peers.py --rows 10000000 --symbols 1000 --repeat 1 --skip flink --queries "V shape STRT DOWN+ UP+" "V shape STRT DOWN+ UP (peer form)" "rising B{3,}" --json $out/peers2.jsonl
step scaling2 $py bench/scaling.py rows --rows 1000000 10000000 --variants floor v_shape rising --json $out/scaling2.jsonl
step scaling2 $py bench/scaling.py rows --rows 1000000 --master 'local[1]' --variants floor v_shape rising --json $out/scaling2.jsonl
step scaling2 $py bench/scaling.py rows --rows 50000000 --memory 14g --variants floor v_shape rising --json $out/scaling2.jsonl
# issue 15, streaming (docs/benchmarks.md §10b, §10c, §10d; Flink needs `bash bench/setup_peers.sh flink`)
step streaming_latency $py bench/streaming_latency.py --engines flink,spark --triggers 0.5,2,10 --rates 1000,3000,9000,27000 --seconds 45 --drain 90 --stop-after-miss --flink-sink collect
step streaming_latency $py bench/streaming_latency.py --engines flink --rates 1000,3000,9000,27000 --seconds 45 --drain 90 --stop-after-miss
step streaming_10m timeout 2150 $py bench/streaming_latency.py --engines spark --backlog --events 10000000 --per-file 250000 --rates 10000 --drain 1900 --output $out/streaming_10m.jsonl
# §10d: transformWithStateInPandas against the Row-based transformWithState
step streaming_operator_api timeout 2400 $py bench/streaming_operator_api.py --events 100000,1000000 --keys 16,1024 --output $out/streaming_operator_api.jsonl
step streaming_operator_api $py bench/streaming_operator_api.py --conversions --output $out/streaming_operator_api.jsonl
# issue 23, R020 windows against MATCH_RECOGNIZE + join (docs/benchmarks.md §12)
step r020_window nice -n 19 $py bench/r020_window.py --rows 2000000 --repeat 2 --json $out/r020_window.jsonl --explain
