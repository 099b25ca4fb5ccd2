#!/usr/bin/env python3
"""tests/fault/chaos.py — runs liquidcl to the end through SIGKILLs (tests/fault/fault_suite.sh).

  chaos.py --bin LIQUIDCL --out DIR --kills K --seed S --mode MODE [--max-wait T] -- ARGS...

Starts `LIQUIDCL run ARGS... --out DIR` (with --resume once DIR holds a checkpoint) and kills
it with SIGKILL K times: MODE `random` at a random time in (0.02, T) s after the start,
`checkpoint` the moment a temporary checkpoint (checkpoint.lqc.tmp.PID) appears in DIR,
i.e. while one is being written (or at 4 T when none does). Then it lets the last run
finish. Prints one JSON line: kills made, kills that hit a checkpoint write, runs, the
exit status of the last run, and any run that ended otherwise than by the kill or 0.
Exit 0 when the last run exits 0 and no run failed on its own.
"""
import argparse
import glob
import json
import os
import random
import signal
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--kills', type=int, default=3)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--mode', choices=('random', 'checkpoint'), default='random')
    ap.add_argument('--max-wait', type=float, default=2.0)
    ap.add_argument('args', nargs=argparse.REMAINDER)
    a = ap.parse_args()
    args = [x for x in a.args if x != '--']
    rng = random.Random(a.seed)
    kills = hits = runs = 0
    bad = []
    last = None
    while True:
        resume = os.path.exists(os.path.join(a.out, 'checkpoint.lqc'))
        cmd = [a.bin, 'run'] + args + ['--out', a.out, '--quiet'] + (['--resume'] if resume else [])
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        runs += 1
        killed = False
        if kills < a.kills:
            t0 = time.monotonic()
            # each resumed run has fewer frames left: the later kills come sooner
            limit = (rng.uniform(0.02, a.max_wait) * 0.6 ** kills if a.mode == 'random'
                     else 4 * a.max_wait)
            pattern = os.path.join(a.out, 'checkpoint.lqc.tmp.%d' % p.pid)
            while p.poll() is None and time.monotonic() - t0 < limit:
                if a.mode == 'checkpoint' and glob.glob(pattern):
                    hits += 1
                    break
                time.sleep(0.0005 if a.mode == 'checkpoint' else 0.01)
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                killed = True
                kills += 1
        err = p.communicate()[1].decode('utf-8', 'replace').strip()
        last = p.returncode
        if killed:
            continue
        if last != 0:
            bad.append({'run': runs, 'resume': resume, 'exit': last, 'stderr': err[-300:]})
            # a run killed before its first checkpoint leaves no checkpoint: start afresh
            if last == 2 and 'no checkpoint' in err and runs < 50:
                bad.pop()
                continue
            # killed after its last checkpoint was written: the run is complete
            if last == 2 and 'holds frame' in err and 'already' in err:
                bad.pop()
                last = 0
        break
    print(json.dumps({'kills': kills, 'checkpoint_hits': hits, 'runs': runs, 'last_exit': last,
                      'failures': bad}))
    return 0 if last == 0 and not bad else 1


if __name__ == '__main__':
    sys.exit(main())
