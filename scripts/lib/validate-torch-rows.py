#!/usr/bin/env python3
"""validate-torch-rows.py: lesson 16's PyTorch rows (lessons/16-fused-attention/harness/torch_ceilings.py).

validate-torch-rows.py --absent HELPER
    Without PyTorch (python3 -S, which hides site-packages, and WB_FORCE_NO_TORCH=1), HELPER on
    a CSV of the lesson must exit 0, say "PyTorch absent" and leave the file byte for byte as it was.
validate-torch-rows.py --gpu HELPER DRIVER
    DRIVER --bench on one small shape, then HELPER on its CSV: exit 0, the driver's rows as they
    were, a torch-flash row (and a torch-cudnn one unless cuDNN said it refuses the shape) with the
    header's number of fields, the driver's shape and work, 2 samples, a positive time, a rate of
    flops / median and no rate above what the GPU gives (scripts/lib/machines.py). Exit 77 (skip)
    where python3 has no PyTorch with a CUDA GPU, or the driver finds no GPU.
Exit 1 with "FAIL: cause" otherwise.
"""
import os
import subprocess
import sys
import tempfile

import bench_csv
import machines

SKIP = 77
DATA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "data")
SHAPE_COLUMNS = ["batch", "heads", "seq", "head_dim", "causal"]
# A CSV as the lesson's --bench writes it, one row (the numbers of an H200 run).
SAMPLE = """# cuda-workbook benchmark
# device: NVIDIA H200
# command: bin/16-fused-attention-solution --bench --out bench/16-fused-attention.csv
lesson,kernel,precision,shape,n,block,repeats,median_ms,min_ms,max_ms,transfers,rate,rate_unit,ceiling,\
ceiling_rate,ratio,baseline,baseline_ms,speedup,device,flops,dram_bytes,intensity,achieved_gflops,achieved_gbs,\
roof_gbs,roof_gflops,roof_fraction,arithmetic,batch,heads,seq,head_dim,causal
16-fused-attention,02-flash,bf16,B=4 H=32 S=4096 d=64,4096,"64 queries x 64-key tiles, 4 warps",20,1.2,1.19,1.3,0,\
229064,GFLOP/s,,,,01-unfused,3.1,2.58333,NVIDIA H200,2.74878e+11,1.34218e+08,2048,229064,111.848,4354.03,,,\
bf16-tensor,4,32,4096,64,0
"""


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def run(command, env=None):
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    print(done.stdout, end="")
    return done


def check_absent(helper):
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "16-fused-attention.csv")
        with open(path, "w", encoding="utf-8") as f:
            f.write(SAMPLE)
        without_site = dict(os.environ, PYTHONPATH="")
        forced = dict(os.environ, WB_FORCE_NO_TORCH="1")
        for how, command, env in (("python3 -S", [sys.executable, "-S", helper, path], without_site),
                                  ("WB_FORCE_NO_TORCH=1", [sys.executable, helper, path], forced)):
            done = run(command, env)
            if done.returncode != 0:
                fail(f"{how}: the helper exited {done.returncode} without PyTorch, not 0")
            if "PyTorch absent" not in done.stdout:
                fail(f"{how}: the helper did not say 'PyTorch absent'")
            with open(path, encoding="utf-8") as f:
                if f.read() != SAMPLE:
                    fail(f"{how}: the helper changed the CSV without PyTorch")
    print("PASSED: without PyTorch the helper exits 0, says so and leaves the CSV as it was")
    return 0


def torch_with_gpu():
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


def check_rows(path, driver_records):
    table = bench_csv.read(path)
    if table.records[:len(driver_records)] != driver_records:
        fail("the driver's rows changed")
    if not table.comments.get("command", "").split()[0].endswith("16-fused-attention-solution"):
        fail("the first # command: line is no longer the driver's")
    added = table.rows[len(driver_records):]
    kernels = [row["kernel"] for row in added]
    if "torch-flash" not in kernels:
        fail(f"no torch-flash row (rows added: {kernels})")
    shape = [table.rows[0][c] for c in SHAPE_COLUMNS]
    for record, row in zip(table.records[len(driver_records):], added):
        if len(record) != len(table.columns):
            fail(f"{row['kernel']}: {len(record)} fields, the header has {len(table.columns)}")
        if [row[c] for c in SHAPE_COLUMNS] != shape or row["flops"] != table.rows[0]["flops"]:
            fail(f"{row['kernel']}: not the driver's shape and work")
        median, rate = bench_csv.number(row["median_ms"], 0), bench_csv.number(row["rate"], 0)
        if row["repeats"] != "2" or median <= 0 or rate <= 0:
            fail(f"{row['kernel']}: repeats {row['repeats']}, median_ms '{row['median_ms']}', rate '{row['rate']}'")
        if abs(float(row["flops"]) / (median * 1e-3) / 1e9 / rate - 1) > 1e-4:
            fail(f"{row['kernel']}: rate {rate} is not flops / median_ms")
        if row["arithmetic"] != "bf16-tensor" or row["rate_unit"] != "GFLOP/s":
            fail(f"{row['kernel']}: arithmetic '{row['arithmetic']}', unit '{row['rate_unit']}'")
    owner = machines.of_device(machines.read(DATA_DIR), table.comments.get("device", ""))
    if owner is not None:
        problems = machines.rate_problems(table, owner[0])
        if problems:
            fail("; ".join(problems))
    print(f"PASSED: {', '.join(kernels)} appended in the driver's columns")


def check_gpu(helper, driver):
    if not torch_with_gpu():
        print("SKIP: python3 has no PyTorch with a CUDA GPU")
        return SKIP
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "16-fused-attention.csv")
        done = run([driver, "--bench", "--seq", "256", "--batch", "2", "--heads", "4", "--repeat", "2", "--out", path])
        if done.returncode == SKIP:
            return SKIP
        if done.returncode != 0:
            fail(f"the driver exited {done.returncode}")
        driver_records = bench_csv.read(path).records
        done = run([sys.executable, helper, path])
        if done.returncode != 0:
            fail(f"the helper exited {done.returncode}")
        check_rows(path, driver_records)
    return 0


def main():
    if sys.argv[1:] in (["--help"], ["-h"]):
        print(__doc__)
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "--absent":
        return check_absent(sys.argv[2])
    if len(sys.argv) == 4 and sys.argv[1] == "--gpu":
        return check_gpu(sys.argv[2], sys.argv[3])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
