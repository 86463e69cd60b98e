"""Reading the PTX of a CUDA source, for the checks that read compiled code rather than run it
(verify-flag-ordering.py, verify-proxy-fence.py, verify-wgmma-group.py): compile one file to PTX, optionally with a
planted change, find each kernel and device function, and name them readably.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

# The header of a kernel (.entry) or device function (.func): group 1 is its (mangled) name.
FUNCTION = re.compile(r"^\s*(?:\.(?:visible|weak|extern)\s+)*\.(?:entry|func)\b(?:\s*\([^)]*\))?\s*([\w$]+)")


def add_arguments(parser):
    """The options every such check takes: the compiler, the architecture, include folders and a
    planted change."""
    parser.add_argument("--nvcc", required=True)
    parser.add_argument("--arch", required=True, help="the architecture without sm_: 90, 90a")
    parser.add_argument("-I", dest="include", action="append", default=[])
    parser.add_argument("--replace", nargs=2, metavar=("FROM", "TO"),
                        help="plant a change: FROM, which SOURCE must hold, becomes TO (in both, <semicolon> "
                             "stands for ';', which a CMake list would split at)")
    parser.add_argument("source")


def parse_arguments(doc):
    """The arguments of such a check, whose usage line and help are DOC (its module docstring):
    -h or --help prints DOC and exits 0."""
    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print(doc.strip())
        sys.exit(0)
    parser = argparse.ArgumentParser(usage=doc.splitlines()[0])
    add_arguments(parser)
    return parser.parse_args()


def nvcc_output(nvcc, kind, arch, source, includes, folder):
    """Compiles the file `source` by nvcc -KIND -O3 -arch=sm_ARCH -std=c++17 with the -I folders
    `includes`, its output written into `folder`: (the output's bytes, or None when nvcc failed,
    nvcc's messages, the command)."""
    out = os.path.join(folder, "out." + kind)
    command = [nvcc, "-" + kind, "-O3", f"-arch=sm_{arch}", "-std=c++17", "-o", out, source]
    command += [f"-I{d}" for d in includes]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        return None, run.stdout + run.stderr, command
    with open(out, "rb") as f:
        return f.read(), run.stdout + run.stderr, command


def compiled(args, kind, prefix):
    """(the output file's text, nvcc's messages) of args.source compiled by nvcc -KIND -O3
    -arch=sm_ARCH (KIND: ptx, or cubin, which runs ptxas too); with --replace, of a copy whose
    text FROM is replaced by TO, which must be there: a planted bug. Exits 2 when FROM is missing,
    3 when nvcc fails (with its messages)."""
    source = args.source
    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        if args.replace:
            planted_from, planted_to = (part.replace("<semicolon>", ";") for part in args.replace)
            with open(source, encoding="utf-8") as f:
                text = f.read()
            if planted_from not in text:
                print(f"error: {source} does not hold '{planted_from}'")
                sys.exit(2)
            # Beside the original name, in a folder of its own: its quoted includes are found
            # through -I (the source's own folder first).
            args.include = [os.path.dirname(os.path.abspath(args.source))] + args.include
            source = os.path.join(folder, os.path.basename(source))
            with open(source, "w", encoding="utf-8") as f:
                f.write(text.replace(planted_from, planted_to))
        output, messages, command = nvcc_output(args.nvcc, kind, args.arch, source, args.include, folder)
    if output is None:
        print(messages + f"error: nvcc failed ({' '.join(command)})")
        sys.exit(3)
    return output.decode("utf-8", errors="replace"), messages


def ptx_of(args, prefix="ptx-"):
    """The PTX of args.source (compiled: nvcc -ptx)."""
    return compiled(args, "ptx", prefix)[0]


def functions(ptx):
    """[(mangled name, [(PTX line number, instruction text without its comment)])] of each kernel
    and device function, in order."""
    found = []
    for number, line in enumerate(ptx.splitlines(), 1):
        header = FUNCTION.match(line)
        if header:
            found.append((header.group(1), []))
        elif found:
            found[-1][1].append((number, line.split("//")[0].strip()))
    return found


def readable(name):
    """A function's name demangled, where c++filt is at hand."""
    try:
        return subprocess.run(["c++filt", name], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return name
