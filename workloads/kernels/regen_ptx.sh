#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Regenerates workloads/kernels/*.ptx from *.cu with nvcc (sm_75, -O3); no-op without nvcc.
set -euo pipefail
cd "$(dirname "$0")"
NVCC="${NVCC:-$(command -v nvcc || true)}"
if [[ -z "$NVCC" && -x /usr/local/cuda/bin/nvcc ]]; then NVCC=/usr/local/cuda/bin/nvcc; fi
if [[ -z "$NVCC" ]]; then
    echo "regen_ptx.sh: nvcc not found; keeping the checked-in PTX"
    exit 0
fi
echo "regen_ptx.sh: using $("$NVCC" --version | grep -o 'release [0-9.]*, V[0-9.]*')"
for cu in *.cu; do
    ptx="${cu%.cu}.ptx"
    echo "  $NVCC -ptx -arch=sm_75 -O3 -o $ptx $cu"
    "$NVCC" -ptx -arch=sm_75 -O3 -o "$ptx" "$cu"
done
# The simulator's PTX front end supports no calls, local memory, module-scope data or constants.
if grep -nE '\.local|call|\.func|\.global \.|\.const' *.ptx; then
    echo "regen_ptx.sh: forbidden constructs found in PTX (above)" >&2
    exit 1
fi
