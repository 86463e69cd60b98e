#!/usr/bin/env python3
"""fatbin.py OBJECT: what the fatbinary of an object file that nvcc compiled holds, one line per
image: "sm_90 cubin", "sm_90a cubin" (code that runs on compute capability 9.0 only),
"compute_120 ptx". Reads the ELF section .nv_fatbin without cuobjdump (which some toolkit
installs lack): a list of containers, each a header (magic 0xBA55ED50, version, header size,
size) and its images, each a header (kind: 1 PTX, 2 cubin; its size; the architecture as
major*10+minor; flags, whose bit 0x100000 marks architecture-specific "a" code) and its bytes.
Exit 2 when the file is no ELF object or holds no fatbinary."""
import struct
import sys

MAGIC = 0xBA55ED50
KINDS = {1: "ptx", 2: "cubin"}
ARCH_SPECIFIC = 0x100000


def sections(data):
    """(name, bytes) of each section of an ELF64 little-endian file."""
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise ValueError("not a 64-bit ELF object")
    (table,) = struct.unpack_from("<Q", data, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQ", data, table + i * entry_size) for i in range(count)]
    names = headers[names_index][4]
    for name, _, _, _, offset, size in headers:
        start = names + name
        yield data[start:data.index(b"\0", start)].decode(), data[offset:offset + size]


def images(body):
    """(kind, architecture name) of every image of a .nv_fatbin section."""
    position = 0
    while position + 16 <= len(body):
        magic, _, header_size, size = struct.unpack_from("<IHHQ", body, position)
        if magic != MAGIC:  # containers are 8-byte aligned
            position += 8
            continue
        image, end = position + header_size, position + header_size + size
        while image < end:
            kind, _, image_header, image_size = struct.unpack_from("<HHIQ", body, image)
            (arch,) = struct.unpack_from("<I", body, image + 28)
            (flags,) = struct.unpack_from("<Q", body, image + 40)
            prefix = "compute_" if kind == 1 else "sm_"
            yield KINDS.get(kind, f"kind-{kind}"), prefix + str(arch) + ("a" if flags & ARCH_SPECIFIC else "")
            image += image_header + image_size
        position = end


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if sys.argv[1:] in (["-h"], ["--help"]) else 2
    try:
        with open(sys.argv[1], "rb") as f:
            found = [body for name, body in sections(f.read()) if name == ".nv_fatbin"]
    except (OSError, ValueError, struct.error) as error:
        print(f"error: {sys.argv[1]}: {error}")
        return 2
    if not found:
        print(f"error: {sys.argv[1]} holds no fatbinary (.nv_fatbin)")
        return 2
    for body in found:
        for kind, arch in images(body):
            print(f"{arch} {kind}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
