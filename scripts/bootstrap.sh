#!/usr/bin/env bash
# Installs the Debian packages stacksim needs (only those missing) and builds it.
# Safe to run again. Usage: scripts/bootstrap.sh [--tests] [build-dir]
#   without --tests: builds the simulator (build/stacksim) and the installable library
#   (libstacksim.a, for `cmake --install build --prefix DIR`), with -DSTACKSIM_TESTS=OFF: no Catch2;
#   with --tests: builds everything (the test binaries and the benchmark too), what ctest needs.
# Uses ccache when it is installed (Debian package ccache).
set -euo pipefail
cd "$(dirname "$0")/.."
tests=OFF
if [ "${1:-}" = "--tests" ]; then
  tests=ON
  shift
fi
build_dir=${1:-build}
packages=(build-essential cmake pkg-config libsystemc-dev libboost-program-options-dev
          libfmt-dev libtomlplusplus-dev nlohmann-json3-dev libbz2-dev
          libzstd-dev  # the CUDA runtime library: nvcc 13 compresses PTX in fatbinaries with zstd
          python3-matplotlib  # stacksim plot and its tests
          clang-14 libclang-rt-14-dev)  # clang and its runtimes: the fuzz targets (scripts/fuzz.sh)
[ "$tests" = ON ] && packages+=(catch2)  # the tests only
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  echo "bootstrap: installing ${missing[*]}" >&2
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DSTACKSIM_WERROR="$werror" -DSTACKSIM_TESTS="$tests" \
      "${launcher[@]}" >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
