#!/usr/bin/env python3
"""Prints 'N passed, N failed[, N skipped]' from meson testlog.json files.

A test that speaks TAP counts once per `ok`/`not ok` line (a Check suite's
table rows each count); any other test counts once. A TAP test whose process
failed although every line said ok (a crash, a leak reported at exit) adds
one failure, so a failing run can never print "0 failed".
"""
import json
import re
import sys

TAP = re.compile(r'^(not ok|ok)\b(.*)$')


def count(path):
    passed = failed = skipped = 0
    with open(path) as f:
        for line in f:
            t = json.loads(line)
            res = t['result']
            p = fl = sk = 0
            for l in (t.get('stdout') or '').splitlines():
                m = TAP.match(l)
                if not m:
                    continue
                if '# SKIP' in m.group(2).upper():
                    sk += 1
                elif m.group(1) == 'ok':
                    p += 1
                else:
                    fl += 1
            if p + fl + sk == 0:
                if res == 'SKIP':
                    sk = 1
                elif res in ('OK', 'EXPECTEDFAIL'):
                    p = 1
                else:
                    fl = 1
            elif res not in ('OK', 'EXPECTEDFAIL', 'SKIP') and fl == 0:
                fl = 1
            passed += p
            failed += fl
            skipped += sk
    return passed, failed, skipped


def main(paths):
    prefix = ''
    if paths and paths[0].startswith('--prefix='):
        prefix = paths.pop(0).split('=', 1)[1] + ' '
    extra_pass = extra_fail = 0
    files = []
    for p in paths:
        if p.startswith('--extra='):
            a, b = p.split('=', 1)[1].split(',')
            extra_pass += int(a)
            extra_fail += int(b)
        else:
            files.append(p)
    tp, tf, ts = extra_pass, extra_fail, 0
    for p in files:
        a, b, c = count(p)
        tp += a
        tf += b
        ts += c
    line = f'{prefix}{tp} passed, {tf} failed'
    if ts:
        line += f', {ts} skipped'
    print(line)
    return 1 if tf else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
