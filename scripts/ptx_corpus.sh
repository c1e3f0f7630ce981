#!/bin/sh
# Regenerates the PTX of the front-end corpus (tests/data/ptx_corpus/*.cu) with nvcc for sm_75.
# The .ptx files are committed so that CI and users without nvcc can run `stacksim ptx check`
# over them (tests/system/test_ptx_corpus.cpp). Flags per file: FLAGS below (default -O3);
# a few files are also built with -lineinfo and -G as separate modules.
# usage: scripts/ptx_corpus.sh [NVCC]   (default /usr/local/cuda/bin/nvcc, or $NVCC)
set -eu
NVCC=${1:-${NVCC:-/usr/local/cuda/bin/nvcc}}
DIR=$(cd "$(dirname "$0")/../tests/data/ptx_corpus" && pwd)
cd "$DIR"
build() {  # build SOURCE OUTPUT FLAGS...
    src=$1 out=$2
    shift 2
    "$NVCC" -ptx -arch=sm_75 "$@" -o "$out.tmp" "$src"
    mv "$out.tmp" "$out"
}
for cu in *.cu; do
    base=${cu%.cu}
    case $base in
        math_fast) flags="-O3 -use_fast_math" ;;
        *) flags="-O3" ;;
    esac
    # shellcheck disable=SC2086
    build "$cu" "$base.ptx" $flags
done
# -lineinfo builds (.loc/.file directives) and -G debug builds of some files.
for base in reduce scan atomics stencil gemm softmax; do build "$base.cu" "${base}_lineinfo.ptx" -O3 -lineinfo; done
for base in misc_util physics; do build "$base.cu" "${base}_debug.ptx" -G; done
