#!/usr/bin/env python3
"""Function-complexity gate (curl's scripts/top-complexity habit).

Runs pmccabe over the C sources of the libraries and the CLI and fails when
  * a function not on the allow-list has a modified McCabe complexity above
    the cutoff (50, curl's);
  * an allow-listed function grew above the score it is listed with;
  * an allow-list entry is stale (the function is gone, or now at or below
    the cutoff, or below its listed score): the list may only shrink, so a
    function that improves must have its entry lowered or removed.

usage: check-complexity.py SOURCE_ROOT ALLOW_LIST
Exit 77 (skipped) when pmccabe is not installed.
"""
import glob
import os
import shutil
import subprocess
import sys

CUTOFF = 50
DIRS = ('lib', 'providers', 'tools')


def scores(root):
    files = sorted(f for d in DIRS
                   for f in glob.glob(os.path.join(root, d, '**', '*.c'), recursive=True))
    out = subprocess.run(['pmccabe'] + files, capture_output=True, text=True, check=True).stdout
    res = {}
    for line in out.splitlines():
        # modified-ccn ccn statements first-line lines file(line): name
        cols = line.split('\t')
        if len(cols) < 6:
            continue
        where, name = cols[5].rsplit(': ', 1)
        path = os.path.relpath(where[:where.rindex('(')], root)
        key = path + ':' + name.strip()
        res[key] = max(res.get(key, 0), int(cols[0]))
    return res


def allow_list(path):
    allowed = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            try:
                key, score = line.split()
                allowed[key] = int(score)
            except ValueError:
                sys.exit('%s:%d: expected "path:function score"' % (path, n))
    return allowed


def main(root, allow_path):
    if not shutil.which('pmccabe'):
        print('1..0 # SKIP pmccabe is not installed (Debian package pmccabe)')
        return 77
    have = scores(root)
    allowed = allow_list(allow_path)
    problems = []
    for key, score in sorted(have.items()):
        if score <= CUTOFF:
            continue
        if key not in allowed:
            problems.append('%s: complexity %d is over %d (split the function)' % (key, score, CUTOFF))
        elif score > allowed[key]:
            problems.append('%s: complexity %d grew past its allowed %d' % (key, score, allowed[key]))
    for key, score in sorted(allowed.items()):
        now = have.get(key)
        if now is None:
            problems.append('%s: on the allow-list but gone: remove the entry' % key)
        elif now <= CUTOFF:
            problems.append('%s: now %d, within the cutoff: remove the entry' % (key, now))
        elif now < score:
            problems.append('%s: now %d: lower its entry from %d' % (key, now, score))
    for p in problems:
        print(p)
    print('%d functions over %d (allowed %d); %d problems' %
          (sum(1 for s in have.values() if s > CUTOFF), CUTOFF, len(allowed), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
