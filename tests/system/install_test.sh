#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Test: `cmake --install` gives a package that the out-of-tree projects of examples/ build against and run:
# examples/noc_hotspot (a SystemC platform of stacksim's routers) and examples/own_workload (your own
# kernel: a LibraryWorkload, stacksim::top::cli_main and --ptx-dir; docs/own-kernel.md).
# Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
work=$(mktemp -d /tmp/stacksim-install-XXXXXX)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
for f in bin/stacksim lib/libstacksim.a include/stacksim/noc/network.h lib/cmake/stacksim/stacksimConfig.cmake; do
  [ -e "$work/prefix/$f" ] || { echo "FAILED: $f not installed"; exit 1; }
done
"$work/prefix/bin/stacksim" --version
cmake -S "$src/examples/noc_hotspot" -B "$work/example" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_BUILD_TYPE=Release > "$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/example" > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$work/example/noc_hotspot"
cmake -S "$src/examples/own_workload" -B "$work/own" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_BUILD_TYPE=Release > "$work/own-configure.log" || { cat "$work/own-configure.log"; exit 1; }
cmake --build "$work/own" > "$work/own-build.log" 2>&1 || { cat "$work/own-build.log"; exit 1; }
# Into a file first: grep -q stops reading at the match, and pipefail would see the writer's SIGPIPE.
"$work/own/my_stacksim" list > "$work/own-list.txt"
grep -q "^  axpb " "$work/own-list.txt" || { echo "FAILED: my_stacksim list has no axpb"; exit 1; }
"$work/own/my_stacksim" run small --workload axpb:4096 --ptx-dir "$src/examples/own_workload/kernels" \
  | tee "$work/own-run.log"
grep -q "verification: PASSED (4096 elements checked)" "$work/own-run.log" || { echo "FAILED: axpb did not verify"; exit 1; }
echo "PASSED: both examples built against $work/prefix; noc_hotspot delivered every packet, axpb verified"
