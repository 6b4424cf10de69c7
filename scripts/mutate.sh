#!/usr/bin/env bash
# A mutation check, in the way mull or cargo-mutants are used: each mutation in
# scripts/mutations.txt (a deliberate breakage of one line) is applied alone in a scratch
# clone, the tests are built there incrementally, and only the suites the mutation names run,
# with a timeout. A mutation the suites fail on (or time out on) is caught; one they pass is a
# hole in the tests. Prints a table of caught / survived and the total time. Not part of
# `make test`: run it after changing tests or the code a mutation names (docs/ARCHITECTURE.md,
# "Rules every layer keeps").
#
#   scripts/mutate.sh [REGEX]     only the mutations whose line in mutations.txt matches REGEX
#
#   AUHOST_MUTATE_DIR=DIR      the scratch clone (default: $TMPDIR/auhost-mutate), kept between
#                              runs so that its build is incremental; never the working tree
#   AUHOST_MUTATE_TIMEOUT=S    seconds each mutation's suites may run (default 900)
#
# The clone is of HEAD plus the working tree's uncommitted changes (tracked and new files), so
# a test can be checked against the mutations before it is committed. Exits non-zero when a
# mutation survives, when its line is not found exactly once, or when it does not build (a
# mutation must be a valid program), and when the unmutated suites fail.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
export PATH=/opt/swift/usr/bin:$PATH
list=$repo/scripts/mutations.txt
scratch=${AUHOST_MUTATE_DIR:-${TMPDIR:-/tmp}/auhost-mutate}
limit=${AUHOST_MUTATE_TIMEOUT:-900}
only=${1:-}
begin=$(date +%s)

# The table: each line "file ;; exact text ;; replacement ;; test filter", # for comments.
files=() finds=() replaces=() filters=() lines=()
number=0
while IFS= read -r line; do
  number=$((number + 1))
  [[ -z $line || $line == \#* ]] && continue
  [[ -n $only && ! $line =~ $only ]] && continue
  rest=$line
  fields=()
  while [[ $rest == *' ;; '* ]]; do fields+=("${rest%% ;; *}"); rest=${rest#* ;; }; done
  fields+=("$rest")
  if [ "${#fields[@]}" -ne 4 ]; then echo "mutations.txt:$number: expected 4 fields separated by ' ;; ', found ${#fields[@]}" >&2; exit 2; fi
  files+=("${fields[0]}") finds+=("${fields[1]}") replaces+=("${fields[2]}") filters+=("${fields[3]}") lines+=("$number")
done <"$list"
[ "${#files[@]}" -gt 0 ] || { echo "no mutation matches '$only'" >&2; exit 2; }

# The scratch clone at HEAD, then the working tree's changes.
if [ ! -d "$scratch/.git" ]; then git clone -q --no-checkout "$repo" "$scratch" || exit 2; fi
git -C "$scratch" fetch -q "$repo" HEAD && git -C "$scratch" checkout -q --force --detach FETCH_HEAD && git -C "$scratch" clean -q -fd || exit 2
(cd "$repo" && git diff HEAD --binary) | git -C "$scratch" apply --allow-empty || { echo "the working tree's changes do not apply to the scratch clone" >&2; exit 2; }
(cd "$repo" && git ls-files --others --exclude-standard -z) | (cd "$repo" && xargs -0 -r cp --parents -t "$scratch") || exit 2
git -C "$scratch" add -A && git -C "$scratch" -c user.name=mutate -c user.email=mutate@localhost commit -q --allow-empty -m "mutate.sh: the tree under test"

cd "$scratch" || exit 2
log=$scratch/.mutate-logs
mkdir -p "$log"
echo "== building the unmutated tree in $scratch"
swift build --build-tests >"$log/build.log" 2>&1 || { tail -30 "$log/build.log"; echo "the unmutated tree does not build" >&2; exit 2; }
union=$(printf '(%s)|' "${filters[@]}")
echo "== the unmutated suites"
if ! timeout "$limit" swift test --skip-build --filter "${union%|}" >"$log/baseline.log" 2>&1; then
  tail -30 "$log/baseline.log"
  echo "the suites fail without a mutation: fix them first" >&2
  exit 2
fi

results=() seconds=()
failed=0
for i in "${!files[@]}"; do
  file=${files[$i]} find=${finds[$i]} replace=${replaces[$i]} filter=${filters[$i]}
  start=$(date +%s)
  label="mutations.txt:${lines[$i]} $file"
  count=$(grep -cF -- "$find" "$file" 2>/dev/null)
  if [ "${count:-0}" -ne 1 ]; then
    results+=("NOT FOUND (${count:-0} lines)") seconds+=(0)
    failed=1
    echo "== $label: the text matches ${count:-0} lines, not 1"
    continue
  fi
  at=$(grep -nF -- "$find" "$file" | cut -d: -f1)
  mapfile -t text <"$file"
  text[at - 1]=${text[at - 1]/"$find"/"$replace"}
  printf '%s\n' "${text[@]}" >"$file"
  echo "== $label:$at"
  if ! swift build --build-tests >"$log/$i.build.log" 2>&1; then
    result="BUILD FAILED"
    failed=1
  else
    timeout "$limit" swift test --skip-build --filter "$filter" >"$log/$i.test.log" 2>&1
    status=$?
    if [ "$status" -eq 124 ]; then
      result="caught (timeout)"
    elif [ "$status" -ne 0 ]; then
      result="caught"
    elif grep -q "with 0 tests" "$log/$i.test.log"; then
      result="NO TESTS"
      failed=1
    else
      result="SURVIVED"
      failed=1
    fi
  fi
  git checkout -q -- "$file"
  results+=("$result") seconds+=($(($(date +%s) - start)))
  echo "   $result"
done
# Leave the clone's build at the unmutated tree for the next run.
swift build --build-tests >"$log/build.log" 2>&1

echo
echo "== mutations"
caught=0
for i in "${!files[@]}"; do
  [[ ${results[$i]} == caught* ]] && caught=$((caught + 1))
  printf '%-16s %4ss  %s: %s -> %s  [%s]\n' "${results[$i]}" "${seconds[$i]}" "${files[$i]}" "${finds[$i]}" "${replaces[$i]}" "${filters[$i]}"
done
total=$(($(date +%s) - begin))
echo "caught $caught of ${#files[@]}; total $((total / 60)) min $((total % 60)) s"
exit "$failed"
