#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Test: `cmake --install` gives a package that an out-of-tree SystemC project (examples/noc_hotspot) builds against and runs.
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
echo "PASSED: the example built against $work/prefix and delivered every packet"
