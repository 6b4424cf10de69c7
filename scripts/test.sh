#!/usr/bin/env bash
# `make test`: builds, runs every test and the examples, and prints where the time went.
#
# The CPU-bound suites run in parallel first; the live suites (each test on a jackd -d dummy of
# its own, timing-sensitive) run after them, one test at a time, on a machine no other suite
# loads. Every test runs with TMPDIR set to a folder of this run's, which must be empty at the
# end: a test that leaves a file behind fails the run. Exits non-zero when any step fails.
#
#   AUHOST_FUZZ_ITERATIONS=N   the fuzzers' long mode (N variants each, counts per outcome)
#   AUHOST_TEST_FILTER=REGEX   only the tests whose names match (both phases)
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH

# The suites that start jackd (JACKTestServer): swift test's --filter / --skip regular expression.
# A new live suite is named …LiveTests, or added here.
LIVE='\.([A-Za-z]*LiveTests|LiveRunTests|LivePlayTests|LiveMIDITests|LiveFilePropertyTests|ControlSafetyTests|JACKIOUnitTests|TeardownOrderTests)\b'
# What the release-only tests need (AllocationTests, the live release comparisons).
RELEASE_PRODUCTS=(auhost auhost-unit-host alloc-check AllocCounter AUHostGain AUHostArpeggiator LV2Fixtures)

run_dir=$(mktemp -d -t auhost-test-XXXXXX)
# The tests' temporary folder (the builds and the examples keep the system's).
test_tmp=$run_dir/tmp
mkdir -p "$test_tmp"
trap 'rm -rf "$run_dir"' EXIT
filter=()
[ -n "${AUHOST_TEST_FILTER:-}" ] && filter=(--filter "$AUHOST_TEST_FILTER")

steps=() seconds=() results=()  # seconds: in milliseconds
failed=0
# step NAME COMMAND...: runs it, timed, its output into the log and $run_dir/NAME.log.
step() {
  local name=$1 start end status
  shift
  echo "== $name"
  start=$(date +%s%N)
  "$@" 2>&1 | tee "$run_dir/$name.log"
  status=${PIPESTATUS[0]}
  end=$(date +%s%N)
  steps+=("$name") seconds+=($(((end - start) / 1000000)))
  if [ "$status" -eq 0 ]; then results+=(ok); else results+=("FAILED ($status)"); failed=1; fi
  return "$status"
}

build_release() {
  local product
  for product in "${RELEASE_PRODUCTS[@]}"; do swift build -c release --product "$product" || return 1; done
}

step build swift build --build-tests &&
  step release build_release &&
  { step tests env TMPDIR="$test_tmp" swift test --skip-build --parallel --skip "$LIVE" "${filter[@]}"
    step live-tests env TMPDIR="$test_tmp" swift test --skip-build --no-parallel --filter "$LIVE" "${filter[@]}"
    step python env TMPDIR="$test_tmp" bash scripts/test-python.sh
    step examples bash scripts/run-examples.sh; }

# Whatever a test left in the temporary folder (it should leave nothing); SwiftPM's own lock
# files and TemporaryDirectory.* folders are not the tests'.
left=$(cd "$test_tmp" && find . -mindepth 1 -maxdepth 1 ! -name '*.lock' ! -name 'TemporaryDirectory.*' | sort)
if [ -n "$left" ]; then
  echo "make test: the tests left these in the temporary folder:"
  echo "$left" | head -20
  failed=1
fi

echo
echo "== where the time went"
total=0
for i in "${!steps[@]}"; do
  printf '%-12s %7d.%d s  %s\n' "${steps[$i]}" $((seconds[i] / 1000)) $((seconds[i] % 1000 / 100)) "${results[$i]}"
  total=$((total + seconds[i]))
done
printf '%-12s %7d.%d s\n' total $((total / 1000)) $((total % 1000 / 100))
# The slowest tests, from Swift Testing's "Test X passed after N seconds" lines (wall time: the
# first phase's tests run side by side).
cat "$run_dir"/tests.log "$run_dir"/live-tests.log 2>/dev/null |
  sed -nE 's/^.{1,3}Test (.{1,60}).* (passed|failed) after ([0-9.]+) seconds.*/\3|\1|\2/p' |
  sort -t'|' -k1 -rn | head -8 | awk -F'|' '{ printf "  %7.1f s  %-8s %s\n", $1, $3, $2 }'
exit "$failed"
