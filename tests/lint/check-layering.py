#!/usr/bin/env python3
"""Layering gate: no include cycle between the folders of lib/.

A folder depends on another when one of its files includes
  * a private header of that folder ("schema/schema.h", or "schema.h" beside it), or
  * a public header <karpenter/X.h> whose functions that folder defines
    (found from the definitions in lib/**/*.c).
The folder graph must be acyclic; every cycle is printed as a path.

usage: check-layering.py SOURCE_ROOT
"""
import glob
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
DECL = re.compile(r'\b(kp_[a-z0-9_]+)\s*\(')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
DEF = re.compile(r'^(?!static\b)[A-Za-z_][^;{}()]*?\b(kp_[a-z0-9_]+)\s*\([^;]*$', re.M)


def folder_of(root, path):
    rel = os.path.relpath(path, os.path.join(root, 'lib'))
    return rel.split(os.sep)[0] if os.sep in rel else None


def find_cycles(edges):
    cycles, state = [], {}

    def visit(node, stack):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, {})):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [])
    return cycles


def symbol_graphs(objdir):
    """File and folder graphs from the symbols the objects use and define.
    meson names an object <folder>_<file>.c.o."""
    defined, used = {}, {}
    for obj in sorted(glob.glob(os.path.join(objdir, '*.c.o'))):
        name = os.path.basename(obj)[:-len('.c.o')]
        out = subprocess.run(['nm', obj], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            cols = line.split()
            if len(cols) == 2 and cols[0] == 'U':
                used.setdefault(name, set()).add(cols[1])
            elif len(cols) == 3 and cols[1] in 'TDRB':
                defined[cols[2]] = name
    files, folders = {}, {}
    for name, syms in used.items():
        for sym in syms:
            other = defined.get(sym)
            if not other or other == name:
                continue
            files.setdefault(name, {}).setdefault(other, set()).add(sym)
            a, b = name.split('_', 1)[0], other.split('_', 1)[0]
            if a != b:
                folders.setdefault(a, {}).setdefault(b, set()).add(sym)
    return files, folders


def report(title, edges, cycles):
    for cyc in cycles:
        print('%s cycle: %s' % (title, ' -> '.join(cyc)))
        for a, b in zip(cyc, cyc[1:]):
            print('  %s -> %s: %s' % (a, b, '; '.join(sorted(edges[a][b])[:3])))


def main(root, objdir=None):
    lib = os.path.join(root, 'lib')
    sources = sorted(glob.glob(os.path.join(lib, '*', '*.[ch]')))
    definer = {}
    for path in sources:
        if path.endswith('.c'):
            with open(path) as f:
                for name in DEF.findall(COMMENT.sub('', f.read())):
                    definer.setdefault(name, set()).add(folder_of(root, path))
    public = {}
    for hdr in glob.glob(os.path.join(root, 'include', 'karpenter', '*.h')):
        with open(hdr) as f:
            names = set(DECL.findall(COMMENT.sub('', f.read())))
        public[os.path.basename(hdr)] = set().union(*(definer.get(n, set()) for n in names))

    edges = {}
    for path in sources:
        here = folder_of(root, path)
        with open(path) as f:
            text = COMMENT.sub('', f.read())
        for kind, inc in INCLUDE.findall(text):
            if kind == '<' and inc.startswith('karpenter/'):
                targets = public.get(inc[len('karpenter/'):], set())
            elif kind == '"':
                local = os.path.join(os.path.dirname(path), inc)
                target = local if os.path.exists(local) else os.path.join(lib, inc)
                targets = {folder_of(root, target)} if os.path.exists(target) else set()
            else:
                continue
            for t in targets:
                if t and t != here:
                    edges.setdefault(here, {}).setdefault(t, set()).add(
                        '%s includes %s' % (os.path.relpath(path, root), inc))

    cycles = find_cycles(edges)
    report('include', edges, cycles)
    print('%d folders, %d edges, %d cycles' % (
        len({f for f in map(lambda p: folder_of(root, p), sources)}),
        sum(len(v) for v in edges.values()), len(cycles)))
    if objdir:
        files, folders = symbol_graphs(objdir)
        fc, dc = find_cycles(files), find_cycles(folders)
        report('call (files)', files, fc)
        report('call (folders)', folders, dc)
        print('%d object files, %d file edges, %d file cycles, %d folder cycles' % (
            len(files), sum(len(v) for v in files.values()), len(fc), len(dc)))
        cycles += fc + dc
    return 1 if cycles else 0


if __name__ == '__main__':
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
