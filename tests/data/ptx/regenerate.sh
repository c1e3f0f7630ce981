#!/bin/sh
# Regenerates the PTX of the test kernels in this folder with nvcc (CI may lack it; the .ptx
# files are committed). Usage: tests/data/ptx/regenerate.sh [NVCC]
set -eu
nvcc=${1:-/usr/local/cuda/bin/nvcc}
cd "$(dirname "$0")"
for cu in *.cu; do
    case "$cu" in
    warp_intrinsics.cu | half_ops.cu) arch=sm_80 ;;  # redux.sync, native bf16 need sm_80
    *) arch=sm_75 ;;
    esac
    "$nvcc" -ptx -arch="$arch" -O3 "$cu" -o "${cu%.cu}.ptx"
done
