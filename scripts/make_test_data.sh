#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Regenerates the project's own test data in tests/data (see tests/data/README.md): the Netrace
# files with the project's writer (build/stacksim_test_data) and the Accel-Sim trace with
# `stacksim trace export`. Run after changing either; the tests check the files match.
# Usage: scripts/make_test_data.sh [build-dir]   (a build with the tests: scripts/bootstrap.sh --tests)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
mkdir -p tests/data/netrace tests/data/accelsim
"$build/stacksim_test_data" tests/data/netrace
"$build/stacksim" trace export small --workload vecadd:256 --quiet --force --out tests/data/accelsim/vecadd-256
