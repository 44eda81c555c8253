#!/usr/bin/env python3
"""Extract the puzzles of CSP-Rules-Examples into tests/data/csp-rules/.

Usage: scripts/csp-rules-examples.py REPO COMMIT OUTDIR

REPO is a git directory of github.com/denis-berthier/CSP-Rules-Examples.
Only puzzle data is copied (givens, Futoshiki's signs), with the rating
named in each file name and the CSP-Rules config lines of its runs; one
file per puzzle type, in ruledoku's input format, plus manifest.tsv.
"""
import re, subprocess, sys, os

repo, commit, out = sys.argv[1:4]
FOLDERS = ["LatinSquares/LatinSquares", "LatinSquares/Pandiagonals", "Futoshiki/ATK",
           "Futoshiki/Tatham", "Sudoku-a/16x16", "Sudoku-a/25x25+"]

def git(*a):
    return subprocess.run(["git", "--git-dir", repo, *a], capture_output=True, check=True).stdout.decode("utf-8", "replace")

def symbols(n):
    chars = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return list(chars[:n]) if n <= 35 else [str(k) for k in range(1, n + 1)]

def line_of(n, cells):
    sy = symbols(n)
    out = [("." if c == 0 else sy[c - 1]) for c in cells]
    return "".join(out) if n <= 35 else " ".join(out)

def token_value(t, n):
    if t in (".", "0"):
        return 0
    if t.isdigit():
        return int(t)
    return "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".index(t.upper()) + 1

RATING = re.compile(r"^(W|gW|B|gB|BC|Z|BRT|NT|NQ|NP|HP|SH[TPQ]|S)\d*$")

def rating(path):
    """The ratings a file name ends with: `W9,gW8,gB7`, `Z2-SHT`, `NP`."""
    stem = os.path.splitext(os.path.basename(path))[0]
    parts = stem.split("-")
    k = len(parts)
    while k > 0 and all(RATING.match(x) for x in parts[k - 1].split(",")):
        k -= 1
    return "-".join(parts[k:]) or "-"

def puzzle(path, text):
    n = int(re.search(r"(\d+)x\d+", os.path.basename(path)).group(1))
    folder = os.path.dirname(path)
    if folder.startswith("Futoshiki"):
        m = re.search(r'\(solve-tatham\s+(\d+)\s+"([^"]*)"', text)
        if m:
            return f"futoshiki:{n}", m.group(2).strip()
        m = re.search(r'\(solve\s+(\d+)\s+"([^"]*)"\s+"([^"]*)"\s+"([^"]*)"', text)
        return f"futoshiki:{n}", " ".join(x.strip() for x in m.groups()[1:])
    if folder.startswith("LatinSquares"):
        kind = "pandiagonal" if "Pandiagonals" in folder else "latin"
        m = re.search(r'\(solve\s+"([^"]*)"', text)
        if m:
            cells = [token_value(c, n) for c in m.group(1).strip()[: n * n]]
        else:
            m = re.search(r"\(solve-list(.*?)\)", text, re.S)
            cells = [token_value(t, n) for t in m.group(1).split()]
        assert len(cells) == n * n, (path, len(cells))
        return f"{kind}:{n}", line_of(n, cells)
    m = re.search(r"\(solve-grid-as-list(.*?)\)", text, re.S)
    toks = [t for t in m.group(1).split() if not t.startswith("(")]
    cells = [token_value(t, n) for t in toks]
    assert len(cells) == n * n, (path, len(cells))
    return f"sudoku:{n}", line_of(n, cells)

files = {}
manifest = []
for folder in FOLDERS:
    for path in git("ls-tree", "-r", "--name-only", commit, folder + "/").split("\n"):
        if not path:
            continue
        text = git("show", f"{commit}:{path}")
        ty, rec = puzzle(path, text)
        configs = sorted(set(re.findall(r"config = (\S+)", text)), key=text.index)
        name = ty.replace(":", "-") + ".txt"
        lines = files.setdefault(name, [])
        lines.append(rec)
        manifest.append((name, len(lines), ty, rating(path), ";".join(configs) or "-", path))

os.makedirs(out, exist_ok=True)
for name, lines in files.items():
    with open(os.path.join(out, name), "w") as f:
        f.write("\n".join(lines) + "\n")
with open(os.path.join(out, "manifest.tsv"), "w") as f:
    f.write("file\tline\ttype\trating\tconfig\tsource\n")
    for row in manifest:
        f.write("\t".join(str(x) for x in row) + "\n")
