#!/usr/bin/env bash
# scripts-help-test.sh SOURCE_DIR: every script under scripts/ (its top, lib/ and maintainer/),
# docs/tools/ (with browser/) and plots/tools/
# (a file whose first line is a Python or shell #! line; data files and modules are left out)
# answers --help with exit 0 and its usage: text that names the script or says "usage". A script
# whose text mentions neither --help nor argparse is not run at all (it could take the word for
# an argument and start its real work): it fails here instead.
set -u
src=$(cd "$1" && pwd) || exit 1
scratch=$(mktemp -d) || exit 1
trap 'rm -rf "$scratch"' EXIT
failed=0 checked=0
for script in "$src"/scripts/* "$src"/scripts/lib/* "$src"/scripts/maintainer/* \
              "$src"/docs/tools/* "$src"/docs/tools/browser/* "$src"/plots/tools/*; do
  [ -f "$script" ] || continue
  name=${script#"$src"/}
  case "$(head -n 1 "$script")" in
    '#!'*python*) interpreter=python3 ;;
    '#!'*sh*) interpreter=bash ;;
    *) continue ;;
  esac
  checked=$((checked + 1))
  if ! grep -Eq -- '--help|argparse' "$script"; then
    echo "FAIL: $name does not handle --help (not run)"
    failed=1
    continue
  fi
  output=$(cd "$scratch" && timeout 60 "$interpreter" "$script" --help </dev/null 2>&1)
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL: $name --help exits $rc"
    failed=1
  elif ! grep -qiF -e usage -e "$(basename "$script")" <<<"$output"; then
    echo "FAIL: $name --help prints no usage: ${output:0:200}"
    failed=1
  fi
  if [ -n "$(ls -A "$scratch")" ]; then
    echo "FAIL: $name --help left files behind: $(ls -A "$scratch" | head -n 3 | tr '\n' ' ')"
    rm -rf "${scratch:?}"/* "$scratch"/.[!.]* 2>/dev/null
    failed=1
  fi
done
[ $failed -eq 0 ] || exit 1
echo "OK: all $checked scripts answer --help with their usage"
