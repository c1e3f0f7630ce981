#!/usr/bin/env python3
"""Writes the benchmark's trace: the shipped vecadd trace (tests/data/accelsim/vecadd-256) with
its CTAs repeated COPIES times (bench/bench_main.cpp replicated_trace does the same in C++).
Usage: scripts/replicate_trace.py OUT_DIR [COPIES]   (default 2000); writes OUT_DIR/kernel-1.traceg
and OUT_DIR/kernelslist.g."""
import os
import sys


def main():
    out_dir = sys.argv[1]
    copies = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'data', 'accelsim', 'vecadd-256',
                       'kernel-1.traceg')
    header, blocks, in_block, ctas = [], [], False, 0
    for line in open(src).read().split('\n')[:-1]:
        if line.startswith('#BEGIN_TB'):
            in_block = True
            blocks.append('')
        if in_block:
            blocks[-1] += line + '\n'
        elif line.startswith('-grid dim'):
            ctas = int(line[line.find('(') + 1:].split(',')[0])
            header.append('-grid dim = (%d,1,1)' % (copies * ctas))
        else:
            header.append(line)
    with open(os.path.join(out_dir, 'kernel-1.traceg'), 'w') as out:
        out.write(''.join(h + '\n' for h in header))
        for c in range(copies):
            for b in range(ctas):
                out.write(blocks[b].replace('thread block = %d,0,0' % b, 'thread block = %d,0,0' % (c * ctas + b), 1))
    with open(os.path.join(out_dir, 'kernelslist.g'), 'w') as out:
        out.write('kernel-1.traceg\n')


if __name__ == '__main__':
    main()
