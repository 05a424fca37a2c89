# Fails when a mnemonic of sdk/isa/ISA.def has no lit test pinning its encoding in this folder.
# RUN: %python %s %srcroot/sdk/isa/ISA.def %S
import pathlib
import re
import sys

table = pathlib.Path(sys.argv[1]).read_text()
mnemonics = re.findall(r'^INST\(\s*\w+\s*,\s*"([^"]+)"', table, re.M)
checked = set()
for test in pathlib.Path(sys.argv[2]).glob("*.s"):
    for line in test.read_text().splitlines():
        match = re.match(r";\s*CHECK(?:-NEXT)?:\s+\d+:(?:\s+[0-9a-f]{2}){32}\s+([a-z_0-9]+)", line)
        if match:
            checked.add(match.group(1))
missing = [m for m in mnemonics if m not in checked]
if not mnemonics:
    sys.exit("no INST lines found in " + sys.argv[1])
if missing:
    sys.exit("mnemonics without a pinned encoding in tests/lit/isa: " + ", ".join(missing))
print(f"{len(mnemonics)} mnemonics, all pinned")
