#!/usr/bin/env bash
# Builds stacksim with clang, AddressSanitizer and UndefinedBehaviorSanitizer (and the fuzz
# targets, which share the build) in its own build folder, and runs the whole test suite there;
# any sanitizer report fails the test that caused it.
# Usage: scripts/sanitize.sh [build-dir]   (default build-asan; CI runs it after the plain suite,
# then scripts/fuzz.sh on the same folder)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build-asan}
cxx=$(command -v clang++-14 || command -v clang++)
# Warnings are checked by the gcc build (-Werror in CI); this one is about runtime findings.
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" -DSTACKSIM_SANITIZE=ON \
  -DSTACKSIM_FUZZ=ON >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
# detect_leaks=0: SystemC keeps its kernel's objects until exit by design.
# detect_stack_use_after_return=0: SystemC switches stacks (coroutines), which that check cannot follow.
export ASAN_OPTIONS=detect_leaks=0:detect_stack_use_after_return=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir "$build_dir" --output-on-failure -j 2
