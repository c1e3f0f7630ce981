#!/usr/bin/env bash
# One test of `stacksim cuda` and the CUDA runtime library: compiles a test program of
# tests/cuda with nvcc, runs it, checks the exit status, its output and the results folder.
# Exit 77 (ctest: skipped) where nvcc or the runtime library is missing, with the reason.
# Usage: cuda_test.sh STACKSIM WORK_DIR SOURCE_DIR CASE
set -uo pipefail
stacksim=$1 work=$2 src=$3 case=$4
nvcc=${NVCC:-}
[ -z "$nvcc" ] && nvcc=$(command -v nvcc || true)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc" ]; then
  echo "SKIPPED: nvcc not found (set NVCC or install the CUDA toolkit): the CUDA test programs need it"
  exit 77
fi
libdir=$(dirname "$stacksim")/cudart
if [ ! -e "$libdir/libcudart.so.13" ]; then
  echo "SKIPPED: $libdir/libcudart.so.13 is not built (sanitizer builds do not build the CUDA runtime library)"
  exit 77
fi
mkdir -p "$work"
fail() { echo "FAILED ($case): $*"; exit 1; }
plain_ptx=(-no-compress -gencode arch=compute_75,code=compute_75)
# build NAME SOURCE FLAGS...: compiles once per source change.
build() {
  local name=$1 source=$2; shift 2
  local bin=$work/$name
  if [ ! -x "$bin" ] || [ "$source" -nt "$bin" ] || [ "$src/tests/cuda/check.h" -nt "$bin" ] ||
     [ "$src/tests/cuda/lib_inputs.h" -nt "$bin" ] || [ "$src/workloads/host_data.cpp" -nt "$bin" ]; then
    "$nvcc" -cudart shared -O2 -I"$src/tests/cuda" -I"$src" "$@" -o "$bin.tmp.$$" "$source" ||
      fail "nvcc could not compile $source"
    mv "$bin.tmp.$$" "$bin"
  fi
  echo "$bin"
}
# run OUT_DIR PROGRAM ARGS...: stacksim cuda on the small preset; sets $status, $out, $err.
run() {
  local dir=$1; shift
  rm -rf "$dir"
  out=$("$stacksim" cuda small --out "$dir" -- "$@" 2>"$work/$case.err")
  status=$?
  err=$(cat "$work/$case.err")
  echo "$out"
  echo "$err" >&2
}
has_results() {
  [ -s "$1/summary.json" ] && [ -s "$1/stats.json" ] && [ -s "$1/config.toml" ] || fail "no results in $1"
  python3 -c "import json,sys; s=json.load(open('$1/summary.json')); sys.exit(0 if s['kernels'] and all(k['cycles']>0 for k in s['kernels']) else 1)" ||
    fail "$1/summary.json has no kernel with cycles"
}
sms=$(grep -E '^\s*num_sms\s*=' "$src/configs/small.toml" | head -1 | sed 's/.*=\s*//; s/\s*#.*//')
case $case in
  vecadd)
    bin=$(build vecadd "$src/tests/cuda/vecadd.cu" "${plain_ptx[@]}") || exit 1
    run "$work/vecadd.out" "$bin"
    [ "$status" = 0 ] || fail "exit status $status"
    grep -q "PASSED vecadd" <<<"$out" || fail "the program did not pass its check"
    has_results "$work/vecadd.out"
    grep -q "_Z6vecaddPKfS0_Pfi" "$work/vecadd.out/summary.json" || fail "the kernel is not in summary.json"
    grep -q "stacksim: cuda vecadd on .*: 1 kernels" <<<"$err" || fail "no summary on stderr" ;;
  symbols)
    bin=$(build symbols "$src/tests/cuda/symbols.cu" "${plain_ptx[@]}") || exit 1
    run "$work/symbols.out" "$bin"
    [ "$status" = 0 ] || fail "exit status $status: $out"
    grep -q "PASSED symbols" <<<"$out" || fail "the program did not pass its check: $out"
    has_results "$work/symbols.out" ;;
  compressed_ptx)
    bin=$(build vecadd_compressed "$src/tests/cuda/vecadd.cu" -gencode arch=compute_75,code=compute_75) || exit 1
    od -A n -t x1 "$bin" | tr -d ' \n' | grep -q 28b52ffd || fail "nvcc did not compress the PTX"
    run "$work/compressed.out" "$bin"
    [ "$status" = 0 ] && grep -q "PASSED vecadd" <<<"$out" || fail "exit status $status"
    has_results "$work/compressed.out" ;;
  sass_only)
    bin=$(build vecadd_sass "$src/tests/cuda/vecadd.cu" -gencode arch=compute_75,code=sm_75) || exit 1
    run "$work/sass.out" "$bin"
    [ "$status" = 1 ] || fail "exit status $status, expected the program's 1"
    grep -q "holds no PTX.*rebuild with nvcc -cudart shared -gencode arch=compute_75,code=compute_75" <<<"$err" ||
      fail "no line naming the nvcc flags"
    grep -q "no kernel image" <<<"$out" || fail "the program did not get cudaErrorNoKernelImageForDevice" ;;
  multi_kernel)
    bin=$(build multi_kernel "$src/tests/cuda/multi_kernel.cu" "${plain_ptx[@]}") || exit 1
    run "$work/multi.out" "$bin"
    [ "$status" = 0 ] && grep -q "PASSED multi_kernel" <<<"$out" || fail "exit status $status"
    has_results "$work/multi.out"
    n=$(python3 -c "import json; print(len(json.load(open('$work/multi.out/summary.json'))['kernels']))")
    [ "$n" = 4 ] || fail "summary.json has $n kernels, expected 4" ;;
  streams_events)
    bin=$(build streams_events "$src/tests/cuda/streams_events.cu" "${plain_ptx[@]}") || exit 1
    run "$work/streams.out" "$bin"
    [ "$status" = 0 ] && grep -q "PASSED streams_events" <<<"$out" || fail "exit status $status"
    has_results "$work/streams.out" ;;
  func_attributes)
    # The PTX version the program was compiled for, as CUB reads it: 75 by default, 80 with -arch=sm_80.
    for arch in 75 80; do
      flags=(); [ "$arch" = 80 ] && flags=(-arch=sm_80)
      bin=$(build "func_attributes_$arch" "$src/tests/cuda/func_attributes.cu" "${flags[@]}") || exit 1
      run "$work/func_attributes_$arch.out" "$bin"
      [ "$status" = 0 ] && grep -q "PASSED func_attributes" <<<"$out" || fail "sm_$arch: exit status $status"
      grep -q "^ptxVersion $arch\$" <<<"$out" || fail "sm_$arch: $(grep ptxVersion <<<"$out"), expected $arch"
    done ;;
  prefetch)
    # cudaMemPrefetchAsync to the GPU under demand paging: the kernel's far faults go away.
    bin=$(build prefetch "$src/tests/cuda/prefetch.cu" "${plain_ptx[@]}") || exit 1
    count() { python3 -c "
import json; s=json.load(open('$1/stats.json'))
print(int(sum((v['value'] if isinstance(v, dict) else v) for k, v in s.items() if k.endswith('$2'))))"; }
    for mode in plain prefetch; do
      rm -rf "$work/prefetch.$mode"
      out=$("$stacksim" cuda small --set 'uvm.mode="managed"' --quiet --out "$work/prefetch.$mode" -- "$bin" "$mode" 2>&1)
      s=$?
      [ $s = 0 ] && grep -q "PASSED prefetch" <<<"$out" || fail "$mode: exit $s: $out"
      echo "$mode: $(grep kernel <<<"$out")"
    done
    f_plain=$(count "$work/prefetch.plain" faults.far) f_pre=$(count "$work/prefetch.prefetch" faults.far)
    p_pre=$(count "$work/prefetch.prefetch" prefetched_pages)
    echo "far faults: $f_plain without the prefetch, $f_pre with it ($p_pre pages prefetched)"
    [ "$f_plain" -gt 0 ] && [ "$f_pre" = 0 ] && [ "$p_pre" -gt 0 ] || fail "far faults $f_plain / $f_pre, prefetched $p_pre" ;;
  async_copies)
    # cudaMemcpyAsync with pinned memory overlaps other streams' kernels: four streams beat one.
    bin=$(build async_copies "$src/tests/cuda/async_copies.cu" "${plain_ptx[@]}") || exit 1
    run "$work/async.out" "$bin"
    [ "$status" = 0 ] && grep -q "PASSED async_copies" <<<"$out" || fail "exit status $status: $(tail -3 <<<"$out")"
    has_results "$work/async.out" ;;
  errors)
    bin=$(build errors "$src/tests/cuda/errors.cu" "${plain_ptx[@]}") || exit 1
    run "$work/errors.out" "$bin" "$sms"
    [ "$status" = 0 ] && grep -q "PASSED errors" <<<"$out" || fail "exit status $status"
    grep -q "cudaMemcpyPeer is not supported by stacksim" <<<"$err" || fail "no line naming the unsupported call"
    grep -q "cudaDeviceFlushGPUDirectRDMAWrites is not supported by stacksim" <<<"$err" || fail "no line naming the stub" ;;
  exit_error)
    bin=$(build vecadd "$src/tests/cuda/vecadd.cu" "${plain_ptx[@]}") || exit 1
    run "$work/exit.out" "$bin" 3
    [ "$status" = 3 ] || fail "exit status $status, expected the program's 3"
    has_results "$work/exit.out" ;;
  crash)
    bin=$(build vecadd "$src/tests/cuda/vecadd.cu" "${plain_ptx[@]}") || exit 1
    run "$work/crash.out" "$bin" crash
    [ "$status" = 139 ] || fail "exit status $status, expected 139 (SIGSEGV)"
    grep -q "died on signal 11 (SIGSEGV)" <<<"$err" || fail "no line naming the signal"
    has_results "$work/crash.out" ;;
  environment)
    # Without the launcher: the library and its settings through the environment.
    bin=$(build vecadd "$src/tests/cuda/vecadd.cu" "${plain_ptx[@]}") || exit 1
    rm -rf "$work/env.out"
    out=$(LD_LIBRARY_PATH=$libdir STACKSIM_CONFIG=small STACKSIM_SET=$'gpu.num_sms=2\nhost.launch_latency_us=1' \
          STACKSIM_OUT=$work/env.out STACKSIM_QUIET=1 "$bin" 2>"$work/$case.err")
    [ $? = 0 ] && grep -q "PASSED vecadd" <<<"$out" || fail "the program failed: $(cat "$work/$case.err")"
    has_results "$work/env.out"
    grep -q "num_sms = 2" "$work/env.out/config.toml" || fail "STACKSIM_SET did not reach the config" ;;
  bad_use)
    "$stacksim" cuda small >/dev/null 2>"$work/$case.err"; s=$?
    [ $s = 2 ] && [ "$(wc -l <"$work/$case.err")" = 1 ] && grep -q "no program" "$work/$case.err" || fail "no program: exit $s"
    "$stacksim" cuda small -- /bin/true >/dev/null 2>"$work/$case.err"; s=$?
    [ $s = 2 ] && grep -q "not a CUDA program" "$work/$case.err" || fail "/bin/true: exit $s"
    bin=$(build vecadd_static "$src/tests/cuda/vecadd.cu" "${plain_ptx[@]}" -cudart static) || exit 1
    "$stacksim" cuda small -- "$bin" >/dev/null 2>"$work/$case.err"; s=$?
    [ $s = 2 ] && grep -q "static runtime: rebuild it with nvcc -cudart shared" "$work/$case.err" || fail "static: exit $s"
    sed 's/libcudart\.so\.13/libcudart.so.11/' "$work/vecadd" >"$work/vecadd11" && chmod +x "$work/vecadd11"
    "$stacksim" cuda small -- "$work/vecadd11" >/dev/null 2>"$work/$case.err"; s=$?
    [ $s = 2 ] && grep -q "needs libcudart.so.11" "$work/$case.err" || fail "version mismatch: exit $s"
    "$stacksim" cuda small --set gpu.num_smz=2 -- "$work/vecadd" >/dev/null 2>"$work/$case.err"; s=$?
    [ $s = 2 ] || fail "bad config key: exit $s" ;;
  library_*)
    # The library's kernels, its inputs (lib_inputs.h: the simulator's own generators, the same
    # seed) and the same host calls as the library workload: the same kernel cycles, kernel by kernel.
    name=${case#library_}
    case $name in
      matmul | gemm | hotspot) size=64 ;;
      atax | bicg | 2dconv) size=128 ;;
      bfs) size=4096 ;;
      *) size=8192 ;;
    esac
    seed=3
    bin=$(build "lib_$name" "$src/tests/cuda/lib_$name.cu" "${plain_ptx[@]}") || exit 1
    run "$work/lib_$name.out" "$bin" "$size" "$seed"
    [ "$status" = 0 ] && grep -q "PASSED lib_$name" <<<"$out" || fail "exit status $status"
    rm -rf "$work/lib_$name.run"
    "$stacksim" run small --workload "$name:$size" --seed "$seed" --quiet --out "$work/lib_$name.run" ||
      fail "stacksim run failed"
    cycles() { python3 -c "import json; print([k['cycles'] for k in json.load(open('$1/summary.json'))['kernels']])"; }
    a=$(cycles "$work/lib_$name.out") b=$(cycles "$work/lib_$name.run")
    echo "kernel cycles of $name:$size: stacksim cuda $a, stacksim run --workload $b"
    [ "$a" = "$b" ] || fail "kernel cycles differ: $a vs $b" ;;
  managed)
    # Managed memory under each unified-memory mode: same results; cudaMallocManaged memory is
    # demand paged (far faults) in device and managed modes, free of transfers in ideal mode.
    bin=$(build managed "$src/tests/cuda/managed.cu" "${plain_ptx[@]}") || exit 1
    for mode in off device ideal managed; do
      rm -rf "$work/managed.$mode"
      out=$("$stacksim" cuda small --set uvm.mode=\"$mode\" --quiet --out "$work/managed.$mode" -- "$bin" 2>&1)
      s=$?
      [ $s = 0 ] && grep -q "PASSED managed" <<<"$out" || fail "uvm.mode=$mode: exit $s: $out"
      has_results "$work/managed.$mode"
    done
    faults() { python3 -c "
import json; s=json.load(open('$1/stats.json'))
print(int(sum(v['value'] for k, v in s.items() if k.endswith('faults.far'))))"; }
    f_managed=$(faults "$work/managed.managed") f_device=$(faults "$work/managed.device")
    f_ideal=$(faults "$work/managed.ideal")
    echo "far faults: managed mode $f_managed, device mode $f_device, ideal mode $f_ideal"
    [ "$f_managed" != 0 ] && [ "$f_device" != 0 ] && [ "$f_ideal" = 0 ] ||
      fail "far faults: managed mode $f_managed, device mode $f_device, ideal mode $f_ideal" ;;
  program_*)
    # A benchmark- or SDK-style program (tests/cuda/programs/NAME.cu) that checks its own
    # results, compiled with nvcc's default targets (SASS and compressed PTX for sm_75).
    name=${case#program_}
    bin=$(build "prog_$name" "$src/tests/cuda/programs/$name.cu") || exit 1
    run "$work/prog_$name.out" "$bin"
    [ "$status" = 0 ] && grep -q "PASSED $name" <<<"$out" || fail "exit status $status: $(tail -5 <<<"$out")"
    if grep -qE '<<<|cudaLaunch' "$src/tests/cuda/programs/$name.cu"; then
      has_results "$work/prog_$name.out"
    else  # a program that launches nothing (deviceQuery) still gets its results folder
      [ -s "$work/prog_$name.out/summary.json" ] && [ -s "$work/prog_$name.out/stats.json" ] || fail "no results"
    fi ;;
  multi_file)
    # A program of two .cu files (two fatbinaries, two modules) linked into one executable.
    bin=$work/multi_file
    "$nvcc" -cudart shared -O2 -o "$bin" "$src/tests/cuda/multi_file/main.cu" "$src/tests/cuda/multi_file/part.cu" ||
      fail "nvcc could not compile tests/cuda/multi_file"
    run "$work/multi_file.out" "$bin"
    [ "$status" = 0 ] && grep -q "PASSED multi" <<<"$out" || fail "exit status $status: $(tail -5 <<<"$out")"
    has_results "$work/multi_file.out"
    n=$(python3 -c "import json; print(len(json.load(open('$work/multi_file.out/summary.json'))['kernels']))")
    [ "$n" = 4 ] || fail "summary.json has $n kernels, expected 4" ;;
  programs_listed)
    # Every program of tests/cuda/programs is a test and is in the docs' table of programs tried.
    for f in "$src"/tests/cuda/programs/*.cu; do
      name=$(basename "$f" .cu)
      grep -q "program_$name\b" "$src/CMakeLists.txt" || fail "$name is not a cuda: program_ test"
      grep -q "^| $name |" "$src/docs/cuda_programs.md" || fail "$name is not in docs/cuda_programs.md"
    done ;;
  per_thread_stream)
    # nvcc --default-stream per-thread: the program imports the _ptds/_ptsz entry points.
    bin=$(build prog_streams_pt "$src/tests/cuda/programs/simple_streams.cu" --default-stream per-thread) || exit 1
    nm -D "$bin" | grep -q "cudaMemcpyAsync_ptsz" || fail "nvcc did not use the per-thread entry points"
    run "$work/streams_pt.out" "$bin"
    [ "$status" = 0 ] && grep -q "PASSED simple_streams" <<<"$out" || fail "exit status $status: $(tail -5 <<<"$out")"
    has_results "$work/streams_pt.out"
    # graphs and stream capture through the _ptsz names
    bin=$(build prog_graphs_pt "$src/tests/cuda/programs/cuda_graphs.cu" --default-stream per-thread) || exit 1
    nm -D "$bin" | grep -q "cudaStreamBeginCapture_ptsz" || fail "nvcc did not use the per-thread capture entry points"
    run "$work/graphs_pt.out" "$bin"
    [ "$status" = 0 ] && grep -q "PASSED cuda_graphs" <<<"$out" || fail "exit status $status: $(tail -5 <<<"$out")"
    has_results "$work/graphs_pt.out" ;;
  sweep)
    # A sweep axis over a CUDA program: each point is `stacksim cuda`, the binary's content is
    # part of the identity (a rebuilt program makes its points stale and resume reruns them).
    bin=$(build vecadd "$src/tests/cuda/vecadd.cu" "${plain_ptx[@]}") || exit 1
    d=$work/sweep && rm -rf "$d" && mkdir -p "$d" && cp "$bin" "$d/vecadd"
    printf '[base]\nconfig = "small"\ncuda = ["./vecadd"]\n[grid]\n"gpu.num_sms" = [2, 4]\n' > "$d/s.toml"
    first=$("$stacksim" sweep "$d/s.toml" 2>&1) || fail "the sweep failed: $first"
    grep -q "2 done, 0 failed" <<<"$first" || fail "not two points done: $first"
    head -1 "$d/s/results.csv" | grep -q "cuda" || fail "results.csv has no cuda column"
    [ "$(wc -l < "$d/s/results.csv")" = 3 ] || fail "results.csv does not have two rows"
    grep -q "$d/vecadd" "$d/s/plan.json" || fail "plan.json does not name the program by its absolute path"
    dry=$("$stacksim" sweep "$d/s.toml" --dry-run 2>&1) || fail "dry run failed: $dry"
    grep -q "stacksim cuda .* -- $d/vecadd" <<<"$dry" || fail "the dry run does not show the cuda command: $dry"
    printf 'rebuilt' >> "$d/vecadd"   # other bytes, still the same runnable program
    status_out=$("$stacksim" sweep "$d/s" --status 2>&1)
    grep -q "0 done" <<<"$status_out" && grep -q "input changed: $d/vecadd" <<<"$status_out" ||
      fail "a rebuilt program does not make its points stale: $status_out"
    again=$("$stacksim" sweep "$d/s.toml" 2>&1) || fail "the resumed sweep failed: $again"
    grep -q "0 done, 0 failed, 2 to run" <<<"$again" || fail "resume did not rerun both points: $again" ;;
  printf_assert)
    # Device printf reaches the program's stdout; a failing assert makes the next synchronising
    # call return cudaErrorAssert and the run report the assertion on one line.
    bin=$(build printf_assert "$src/tests/cuda/printf_assert.cu" "${plain_ptx[@]}") || exit 1
    run "$work/printf_assert.out" "$bin"
    [ "$status" = 0 ] || fail "exit status $status: $out"
    [ "$(grep -c '^hello from block [01] thread [0-9]* of 40$' <<<"$out")" = 80 ] || fail "not 80 printf lines: $out"
    grep -q "PASSED printf" <<<"$out" || fail "the printf part did not pass: $out"
    run "$work/printf_assert.fail" "$bin" assert
    grep -q "^assert: cudaErrorAssert$" <<<"$out" || fail "cudaDeviceSynchronize did not return cudaErrorAssert: $out"
    grep -q "assertion failed: .*printf_assert.cu:[0-9]*: .*check_positive.*: v\[i\] > 0" <<<"$err" ||
      fail "no assertion line on stderr: $err" ;;
  *) fail "unknown case" ;;
esac
echo "PASSED ($case)"
