#!/usr/bin/env python3
"""Regenerates the damaged .om and .npy fixtures of this folder (run after a format change).

usage: make_fixtures.py BIN_DIR   (BIN_DIR holds asc-omcheck; NumPy must be importable)
The .expected files beside the fixtures are written by hand and pin each one-line message.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FLAGS_OFFSET = 24
MAJOR_OFFSET = 8
HEADER_SIZE = 64
SECTION_ENTRY = 24


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as fh:
        fh.write(bytes(data))


def section_offset(model, index):
    entry = HEADER_SIZE + index * SECTION_ENTRY
    return int.from_bytes(model[entry + 8:entry + 16], "little")


def om_fixtures(bin_dir):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "sample.om")
        subprocess.run([os.path.join(bin_dir, "asc-omcheck"), "--write-sample", path], check=True)
        model = bytearray(open(path, "rb").read())
    write("sample.om", model)
    write("truncated-table.om", model[:100])
    write("truncated-sections.om", model[:1000])
    write("appended.om", model + b"\0" * 16)
    flipped = bytearray(model)
    flipped[FLAGS_OFFSET] ^= 0x04
    write("header-bitflip.om", flipped)
    flipped = bytearray(model)
    flipped[section_offset(model, 1) + 40] ^= 0x01  # inside the kernels section
    write("section-bitflip.om", flipped)
    future = bytearray(model)
    future[MAJOR_OFFSET] = 3
    write("future-version.om", future)
    write("wrong-magic.om", b"PK\x03\x04" + model[4:])


def npy_fixtures():
    np.save(os.path.join(HERE, "fortran-big-endian.npy"),
            np.asfortranarray(np.arange(6, dtype=">f4").reshape(2, 3)))
    write("bad-magic.npy", b"\x89PNG\r\n\x1a\n" + bytes(32))
    path = os.path.join(HERE, "truncated.npy")
    np.save(path, np.arange(1024, dtype="<f4"))
    data = open(path, "rb").read()
    write("truncated.npy", data[:228])
    header = b"{'descr': '<f4', 'fortran_order': maybe, 'shape': (2,), }"
    write("bad-header.npy", b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header + bytes(8))
    np.save(os.path.join(HERE, "complex.npy"), np.zeros(3, dtype=np.complex128))


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    om_fixtures(sys.argv[1])
    npy_fixtures()
    return 0


if __name__ == "__main__":
    sys.exit(main())
