#!/usr/bin/env python3
"""Instructions per game of every game's line-ups, counted by callgrind, against the committed table.

    cargo build --release
    python3 benches/instructions.py            # compare with benches/instructions.csv (exit 1 on a slowdown)
    python3 benches/instructions.py --write    # after a change meant to move a count: rewrite the table
    python3 benches/instructions.py flower     # only the rows whose label contains "flower"

A count is the same on a loaded machine as on a quiet one (valgrind counts executed
instructions, one thread), so a change that slows a game shows in review as a row above the
table by more than the tolerance (2%), without timing anything. Each row runs `simulate` twice
under callgrind, with N games and with one game, and divides the difference by N - 1: the
start-up (parsing, allocation, the table) cancels out.

The counts belong to one compiler and one build profile (`release`, the rustc version in the
table's header): after a toolchain upgrade, `--write` the table on the old commit and the new
one separately rather than comparing across. The rows are the line-ups of the speed table in
docs/performance.md and neighbours off it (other bot parameters, mixed tables, other player
counts), so that no single line-up is the only one watched.
"""
import csv, os, re, subprocess, sys, tempfile

EXE = os.path.join("target", "release", "playtest")
TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "instructions.csv")
TOLERANCE = 0.02
CHROMA = ["--set", "players=4", "--set", "deck.base_sets=3", "--set", "deck.colors_sets=1", "--set", "deck.shapes_sets=1"]
FP = ["--set", "players=4", "--set", "deck.base_sets=2", "--set", "max_play=5", "--set", "hand_size=5", "--set", "petals=5"]
MP = ["--set", "players=4", "--set", "deck.base_sets=2", "--set", "deal=3"]
# label, variant, arguments, games (N): the first rows are the speed table's line-ups.
ROWS = [
    ("penny-badger basic 0.3/0.3", "penny-badger", ["--set", "deck.action_sets=0", "--bots", "basic:bluff=0.3:challenge=0.3"], 4000),
    ("penny-badger mixed rates", "penny-badger",
     ["--set", "deck.action_sets=0", "--bots", "basic:bluff=0.1:challenge=0.3,basic:bluff=0.3:challenge=0.1,basic:bluff=0.2:challenge=0.2,basic:bluff=0.4:challenge=0.4"], 4000),
    ("take-a-penny 4p random", "take-a-penny", ["--bots", "random"], 40000),
    ("pig-farm 4p threshold", "pig-farm", ["--set", "rounds=1", "--bots", "threshold"], 20000),
    ("flower-power 4p greedy", "flower-power", FP + ["--bots", "greedy"], 20000),
    ("match-patch 4p memory 1.0", "match-patch", MP + ["--bots", "memory:recall=1"], 20000),
    ("match-patch 4p memory 0.9", "match-patch", MP + ["--bots", "memory:recall=0.9"], 20000),
    ("dice-factor 4p collector", "dice-factor", CHROMA + ["--set", "deck.action_sets=0", "--set", "hand_size=5", "--bots", "collector"], 20000),
    ("bluffing-joker 4p honest", "bluffing-joker", ["--bots", "honest"], 200),
    ("rainbow-rush 4p builder", "rainbow-rush", CHROMA + ["--set", "deal=3", "--set", "row_size=5", "--bots", "builder"], 20000),
    # off the speed table: standard variants, other parameters, mixed tables, other player counts
    ("pig-farm 3p threshold", "pig-farm", ["--set", "players=3", "--set", "rounds=1", "--bots", "threshold"], 20000),
    ("pig-farm standard mixed", "pig-farm", ["--bots", "threshold,greedy,threshold:sell_at=5,greedy"], 2000),
    ("flower-power standard greedy/cautious", "flower-power", ["--bots", "greedy,cautious,greedy,cautious"], 2000),
    ("flower-power 3p greedy", "flower-power", ["--set", "players=3", "--bots", "greedy"], 5000),
    ("dice-factor standard collector", "dice-factor", ["--bots", "collector"], 10000),
    ("dice-factor 3p collector", "dice-factor", ["--set", "players=3", "--bots", "collector"], 10000),
    ("bluffing-joker 6p honest", "bluffing-joker", ["--set", "players=6", "--bots", "honest"], 100),
    ("bluffing-joker 4p bluffer", "bluffing-joker", ["--bots", "bluffer"], 200),
    ("rainbow-rush standard builder", "rainbow-rush", ["--bots", "builder"], 10000),
    ("match-patch standard memory 0.8", "match-patch", ["--bots", "memory:recall=0.8"], 10000),
    ("beaver-mania standard greedy", "beaver-mania", ["--bots", "greedy"], 2000),
    # rules files, played by the interpreter (a path ending in .toml is the file itself)
    ("rules flower-power random", "examples/rules/flower-power.toml", ["--bots", "random"], 4000),
    ("rules penny-badger random", "examples/rules/penny-badger.toml", ["--bots", "random"], 200),
    ("rules color-match greedy", "examples/rules/color-match.toml", ["--bots", "greedy"], 1000),
]


def instructions(args):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *args], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"{' '.join(args[:4])} failed under valgrind: {r.stderr[-400:]}")
        m = re.search(r"Collected : (\d+)", r.stderr)
        if not m:
            sys.exit(f"no instruction count in valgrind's output: {r.stderr[-400:]}")
        return int(m.group(1))


def per_game(variant, args, n):
    path = variant if variant.endswith(".toml") else f"variants/{variant}/standard.toml"
    base = [EXE, "simulate", path, *args, "--seed", "1", "--threads", "1", "-q"]
    many = instructions(base + ["--games", str(n)])
    one = instructions(base + ["--games", "1"])
    return (many - one) / (n - 1)


def main():
    argv = sys.argv[1:]
    write = "--write" in argv
    want = [a for a in argv if a != "--write"]
    if not os.path.exists(EXE):
        sys.exit(f"{EXE} is missing: run `cargo build --release` first (the table counts the release build)")
    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    committed, committed_rustc = {}, None
    if os.path.exists(TABLE):
        with open(TABLE) as f:
            lines = f.read().splitlines()
        if lines and lines[0].startswith("# "):
            committed_rustc = lines[0][2:]
        for row in csv.DictReader(l for l in lines if not l.startswith("#")):
            committed[row["line-up"]] = float(row["instructions per game"])
    if not write and committed_rustc and committed_rustc != rustc:
        print(f"note: the table was counted with {committed_rustc}, this is {rustc}: counts may differ by the compiler alone")
    measured, worse = {}, []
    for label, variant, args, n in ROWS:
        if want and not any(w in label for w in want):
            continue
        count = per_game(variant, args, n)
        measured[label] = count
        old = committed.get(label)
        if old is None:
            print(f"{label}: {count:,.0f} instructions per game (not in the table)", flush=True)
            continue
        change = count / old - 1
        flag = ""
        if change > TOLERANCE:
            flag = f"  SLOWER than the table by more than {TOLERANCE:.0%}"
            worse.append(label)
        elif change < -TOLERANCE:
            flag = "  faster: `--write` the table with the change"
        print(f"{label}: {count:,.0f} instructions per game, table {old:,.0f} ({change:+.1%}){flag}", flush=True)
    if write:
        rows = dict(committed)
        rows.update(measured)
        order = [label for label, *_ in ROWS]
        with open(TABLE, "w") as f:
            f.write(f"# {rustc}\n")
            f.write("line-up,instructions per game\n")
            for label in order:
                if label in rows:
                    f.write(f"{label},{rows[label]:.0f}\n")
        print(f"wrote {TABLE}")
    elif worse:
        sys.exit(f"{len(worse)} line-up(s) slower than the table: {', '.join(worse)}")


if __name__ == "__main__":
    main()
