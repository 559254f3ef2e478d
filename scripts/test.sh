#!/usr/bin/env bash
# Runs the whole test suite: unit, integration and interop tests under CTest,
# then the unit tests and the PostgreSQL-oracle corpus once more under
# AddressSanitizer + UBSan (any report fails the run: ASan aborts on its first
# error, UBSan checks are built non-recoverable and halt too), then each
# libFuzzer target for a bounded time (scripts/fuzz.sh).
# Installs what it needs first. Usage (as root): bash scripts/test.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

install_apt_packages
install_npm_packages
install_python_packages
install_hotdata_clients

build_tree "$HOGLAKE_ROOT/build"
log "running tests (unit, integration, interop)"
ctest --test-dir "$HOGLAKE_ROOT/build" --output-on-failure -j2

build_tree "$HOGLAKE_ROOT/build-asan" -DHOGLAKE_SANITIZE=ON -DHOGLAKE_UNIT_TESTS_ONLY=ON
log "running unit tests and the oracle corpus under AddressSanitizer + UndefinedBehaviorSanitizer"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir "$HOGLAKE_ROOT/build-asan" --output-on-failure -j2 -L 'unit|oracle'

log "fuzzing (each target 60 s under ASan + UBSan)"
bash "$HOGLAKE_ROOT/scripts/fuzz.sh" 60
