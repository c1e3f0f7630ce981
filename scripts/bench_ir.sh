#!/usr/bin/env bash
# Host-cost regression guard: host instructions (valgrind --tool=callgrind, which counts
# instructions, repeatable on a busy machine) per simulated warp-instruction for the cases of
# bench/ir_budget.tsv, compared with each case's budget. Not a test (minutes under callgrind).
# Usage: scripts/bench_ir.sh [--write] [--doc FILE] [CASE_PATTERN] [STACKSIM]
#   prints a markdown table (case, warp-instructions, host instructions, per warp-instruction,
#   budget, target) and exits 1 when a case is over its budget;
#   --write sets every measured case's budget to its figure + 5 % (after a speed-up);
#   --doc FILE puts the table between FILE's <!-- bench-ir:begin --> and <!-- bench-ir:end -->.
# The trace case is the benchmark's trace (scripts/replicate_trace.py, 2000 copies of the
# shipped vecadd trace), measured with a warm trace cache (one run first fills it).
set -euo pipefail
cd "$(dirname "$0")/.."
write=0
doc=""
while :; do
  case ${1:-} in
    --write) write=1; shift ;;
    --doc) doc=$2; shift 2 ;;
    *) break ;;
  esac
done
pattern=${1:-.}
bin=$(realpath "${2:-build/stacksim}")
budget_file=bench/ir_budget.tsv
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export STACKSIM_TRACE_CACHE="$work/cache"
python3 scripts/replicate_trace.py "$work" 2000
emit() { echo "$1"; echo "$1" >> "$work/table"; }
emit "| case | warp-instructions | host instructions | per warp-instruction | budget | target |"
emit "|---|---|---|---|---|---|"
status=0
: > "$work/measured"
while IFS=$'\t' read -r -u 3 name budget target args; do
  case $name in ''|'#'*) continue ;; esac
  [[ $name =~ $pattern ]] || continue
  args=${args//@TRACE@/$work/kernelslist.g}
  out="$work/out-$name"
  # shellcheck disable=SC2086  # the arguments are words of the budget file
  if [[ $args == *--trace* ]]; then "$bin" run $args --out "$out.warm" --quiet >/dev/null 2>&1; fi
  # shellcheck disable=SC2086
  valgrind --tool=callgrind --callgrind-out-file="$work/cg-$name" "$bin" run $args --set run.alone_runs=false \
    --out "$out" --quiet >/dev/null 2>"$work/err-$name" || { emit "| $name | FAILED: $(tail -n 1 "$work/err-$name") |"; status=1; continue; }
  row=$(python3 - "$name" "$work/cg-$name" "$out/summary.json" "$budget" "$target" <<'PY'
import json, re, sys
name, cg, summary, budget, target = sys.argv[1:6]
total = 0
for line in open(cg):
    m = re.match(r'summary: (\d+)', line) or re.match(r'totals: (\d+)', line)
    if m:
        total = int(m.group(1))
insts = json.load(open(summary))['warp_instructions']
per = total / insts
over = per > float(budget)
print('%s\t%.0f\t| %s | %s | %s | %s | %s | %s |' % (
    'OVER' if over else 'ok', per, name, f'{insts:,}', f'{total:,}', f'{per:,.0f}' + (' **over**' if over else ''),
    f'{float(budget):,.0f}', f'{float(target):,.0f}'))
PY
)
  IFS=$'\t' read -r verdict per markdown <<< "$row"
  emit "$markdown"
  [ "$verdict" = OVER ] && status=1
  printf '%s\t%s\n' "$name" "$per" >> "$work/measured"
done 3< "$budget_file"
if [ -n "$doc" ]; then
  python3 - "$doc" "$work/table" "$work/measured" "$write" <<'PY'
import sys
path, table, measured, write = sys.argv[1:5]
new = {}
for line in open(measured):
    name, per = line.rstrip('\n').split('\t')
    new[name] = round(float(per) * 1.05)
rows = []
for line in open(table).read().splitlines():
    cells = line.split(' | ')
    # With --write the budget column shows the budgets just written.
    if write == '1' and len(cells) == 6 and cells[0].lstrip('| ') in new:
        cells[4] = f'{new[cells[0].lstrip("| ")]:,}'
    rows.append(' | '.join(cells))
open(table, 'w').write('\n'.join(rows) + '\n')
text = open(path).read()
begin, end = '<!-- bench-ir:begin -->', '<!-- bench-ir:end -->'
i, j = text.index(begin) + len(begin), text.index(end)
body = '\n<!-- written by scripts/bench_ir.sh --doc; do not edit -->\n' + open(table).read()
open(path, 'w').write(text[:i] + body + text[j:])
PY
fi
if [ $write = 1 ]; then
  python3 - "$budget_file" "$work/measured" <<'PY'
import sys
path, measured = sys.argv[1:3]
new = {}
for line in open(measured):
    name, per = line.rstrip('\n').split('\t')
    new[name] = round(float(per) * 1.05)
out = []
for line in open(path):
    parts = line.rstrip('\n').split('\t')
    if line.startswith('#') or len(parts) < 4 or parts[0] not in new:
        out.append(line.rstrip('\n'))
        continue
    parts[1] = str(new[parts[0]])
    out.append('\t'.join(parts))
open(path, 'w').write('\n'.join(out) + '\n')
PY
  echo "budgets written to $budget_file" >&2
  exit 0
fi
exit $status
