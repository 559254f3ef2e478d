#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang under AddressSanitizer and
# UndefinedBehaviorSanitizer into build-fuzz/ and runs each for a bounded
# time from its seed corpus. Usage (as root): bash scripts/fuzz.sh [SECONDS]
# (default 60 per target; an hour-long campaign: bash scripts/fuzz.sh 3600).
# A crash, sanitizer report, leak or timeout fails the script and leaves the
# reproducer in build-fuzz/artifacts/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seconds=${1:-60}
install_apt_packages clang libclang-rt-14-dev
if [ ! -f "$HOGLAKE_ROOT/build-fuzz/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S "$HOGLAKE_ROOT" -B "$HOGLAKE_ROOT/build-fuzz" -G Ninja \
    -DHOGLAKE_FUZZ=ON -DHOGLAKE_SANITIZE=ON -DHOGLAKE_UNIT_TESTS_ONLY=ON >/dev/null
fi
log "building fuzz targets"
ninja -C "$HOGLAKE_ROOT/build-fuzz" -j"${HOGLAKE_JOBS:-2}" request_fuzz http_parser_fuzz parquet_reader_fuzz \
  sql_fuzz

artifacts="$HOGLAKE_ROOT/build-fuzz/artifacts"
mkdir -p "$artifacts"
run_target() {
  local target=$1 seeds=$2
  shift 2
  # A scratch corpus (what the run learns) grows beside the committed seeds.
  local corpus="$HOGLAKE_ROOT/build-fuzz/corpus/$target"
  mkdir -p "$corpus"
  log "fuzzing $target for ${seconds}s"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$HOGLAKE_ROOT/build-fuzz/fuzz/$target" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix="$artifacts/$target-" -print_final_stats=1 "$@" \
    "$corpus" $seeds 2>&1 | tail -n 12
  return "${PIPESTATUS[0]}"
}
run_target request_fuzz "$HOGLAKE_ROOT/fuzz/corpus/request" -max_len=65536
run_target http_parser_fuzz "$HOGLAKE_ROOT/fuzz/corpus/http" -max_len=65536
run_target parquet_reader_fuzz "" -max_len=262144
run_target sql_fuzz "$HOGLAKE_ROOT/fuzz/corpus/sql" -max_len=4096
