#!/usr/bin/env bash
# notebook-runner-self-test.sh SOURCE_DIR: scripts/lib/run-notebook.py stops at a failing cell
# (exit 1, naming it, the cells after it not run) and passes a notebook whose cells all run.
set -u
src=${1:?usage: notebook-runner-self-test.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/notebooks"
cell() { printf '{"cell_type": "code", "metadata": {}, "execution_count": null, "outputs": [], "source": ["%s"]}' "$1"; }
printf '{"cells": [%s, %s, %s], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}\n' \
  "$(cell 'x = 1')" "$(cell 'raise RuntimeError(\"planted failure\")')" "$(cell 'open(\"after\", \"w\").write(\"ran\")')" \
  >"$work/notebooks/bad.ipynb"
printf '{"cells": [%s, %s], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}\n' \
  "$(cell 'x = 1')" "$(cell 'assert x == 1')" >"$work/notebooks/good.ipynb"
out=$(python3 "$src/scripts/lib/run-notebook.py" "$work/notebooks/bad.ipynb" 2>&1)
rc=$?
if [ "$rc" -ne 1 ] || ! grep -q "FAILED: cell 2" <<<"$out" || [ -e "$work/after" ]; then
  echo "FAIL: a failing cell did not stop the notebook (exit $rc):"; echo "$out"; exit 1
fi
echo "ok: a failing cell stops the notebook"
if ! python3 "$src/scripts/lib/run-notebook.py" "$work/notebooks/good.ipynb"; then
  echo "FAIL: a notebook whose cells all run did not pass"; exit 1
fi
echo "ok: a notebook whose cells all run passes"
