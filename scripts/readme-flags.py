#!/usr/bin/env python3
"""Rewrites README.md's flags table from `csb --help` (tests/readme_flags.rs checks the two agree):
`python3 scripts/readme-flags.py [BOT]`, default target/release/csb."""
import re
import subprocess
import sys

bot = sys.argv[1] if len(sys.argv) > 1 else "target/release/csb"
help_text = subprocess.run([bot, "--help"], capture_output=True, text=True, check=True).stdout
rows = []
for line in help_text.splitlines():
    match = re.match(r"  (--\S+(?: \S+)?)\s+(.*) \[(.*)\]$", line)
    if match:
        usage, meaning, default = match.groups()
        rows.append("| `%s` | %s | %s |" % (usage.replace("|", "\\|"), default, meaning))
start, end = "| flag | default | meaning |", "<!-- end of flags table -->"
readme = open("README.md").read()
head, rest = readme.split(start, 1)
tail = rest[rest.index(end):]
table = start + "\n| --- | --- | --- |\n" + "\n".join(rows) + "\n"
open("README.md", "w").write(head + table + tail)
