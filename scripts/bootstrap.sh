#!/usr/bin/env bash
# Installs the Debian packages stacksim needs (only those missing) and builds it.
# Safe to run twice. Usage: scripts/bootstrap.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build}
packages=(build-essential cmake pkg-config libsystemc-dev libboost-program-options-dev
          libfmt-dev catch2 libtomlplusplus-dev nlohmann-json3-dev libbz2-dev
          python3-matplotlib)  # stacksim plot and its tests
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
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DSTACKSIM_WERROR="$werror" >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
