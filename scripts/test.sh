#!/usr/bin/env bash
# `make test`: builds, runs every test and the examples, and prints where the time went.
#
# After the debug build, three tracks run side by side. The CPU track (the release products,
# then the CPU-bound suites in parallel) and the Python tests run at the lowest priority (nice
# 19: a scheduler weight of 15 against a live process's 1,024, so that even twenty of their
# threads take less than a third of a core from it; at nice 10, weight 110, a JACK recording
# of the live track lost a third of its windows once beside them, not reproduced since):
# they keep both cores busy but yield them at once to the live track, whose suites (each test
# on a jackd -d dummy of its own, real-time when the machine allows it) run one test at a time
# (those that run the release build once it is built), followed by Examples/. The Python and
# live tracks' lines are printed with "python| " and "live| " in front. Every test runs with
# TMPDIR set to a folder of this run's, which must be empty at the end: a test that leaves a
# file behind fails the run. Exits non-zero when any step fails.
#
#   AUHOST_FUZZ_ITERATIONS=N   the fuzzers' long mode (N variants each, counts per outcome)
#   AUHOST_TEST_FILTER=REGEX   only the Swift tests whose names match (CPU and live tracks)
#   AUHOST_TEST_SERIAL=1       the tracks one after the other (the live suites alone on the machine)
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH

# The suites that start jackd (JACKTestServer): swift test's --filter / --skip regular expression.
# A new live suite is named …LiveTests, or added here.
LIVE='\.([A-Za-z]*LiveTests|LiveRunTests|LivePlayTests|LiveMIDITests|LiveFilePropertyTests|ControlSafetyTests|JACKIOUnitTests|TeardownOrderTests)\b'
# The live tests that run the release build (the live track runs them once the CPU track has
# built it): a new one is named theRelease…, or added here.
LIVE_RELEASE='/(theRelease[A-Za-z]*|fiftyBankReloadsWhileTheSongPlays)\(|\.DeviceOutputValidateLiveTests/'
# What the release-only tests need (AllocationTests, the validator's runs, the live release comparisons).
RELEASE_PRODUCTS=(auhost auhost-unit-host alloc-check AllocCounter AUHostGain AUHostArpeggiator LV2Fixtures)

run_dir=$(mktemp -d -t auhost-test-XXXXXX)
# The builds' and the examples' temporary folder: SwiftPM leaves a TemporaryDirectory.* folder
# for each compiler run and a lock file for each build folder in it, which go with the run's
# folder (so every SwiftPM process of the run takes its locks there: another `swift build` in
# this checkout while make test runs would not wait for it).
export TMPDIR=$run_dir/tools
# The tests' own, which must be empty at the end.
test_tmp=$run_dir/tmp
mkdir -p "$TMPDIR" "$test_tmp"
trap 'rm -rf "$run_dir"' EXIT
filter=()
[ -n "${AUHOST_TEST_FILTER:-}" ] && filter=(--filter "$AUHOST_TEST_FILTER")

# step NAME COMMAND...: runs it, timed, its output into the log and $run_dir/NAME.log, and
# appends "NAME MILLISECONDS STATUS" to $run_dir/steps (a track in the background records there too).
step() {
  local name=$1 start end status
  shift
  echo "== $name"
  start=$(date +%s%N)
  "$@" 2>&1 | tee "$run_dir/$name.log"
  status=${PIPESTATUS[0]}
  end=$(date +%s%N)
  echo "$name $(((end - start) / 1000000)) $status" >>"$run_dir/steps"
  return "$status"
}

build_release() {
  local product
  for product in "${RELEASE_PRODUCTS[@]}"; do swift build -c release --product "$product" || return 1; done
}

# run_tests OPTIONS…: the test bundle, run directly (two `swift test` processes cannot run at
# once: the second waits for the first's lock on .build) with swift test's options.
run_tests() {
  TMPDIR="$test_tmp" NO_COLOR=1 "$tests_binary" --testing-library swift-testing "$@"
}

# The CPU track, in a subshell of its own at nice 19 (what it starts inherits it).
cpu_track() {
  renice -n 19 -p "$BASHPID" >/dev/null
  step release build_release
  echo $? >"$run_dir/release.status"
  [ "$(cat "$run_dir/release.status")" -eq 0 ] || return 1
  step tests run_tests --parallel --skip "$LIVE" "${filter[@]}"
}

# The CPU track in a subshell; one that ended before the release build still says how it
# went, failed (the live track waits for release.status).
run_cpu_track() {
  (cpu_track)
  [ -e "$run_dir/release.status" ] || echo 1 >"$run_dir/release.status"
}

# The Python tests (the debug library and tool), at nice 19 too.
python_track() {
  renice -n 19 -p "$BASHPID" >/dev/null
  step python env TMPDIR="$test_tmp" bash scripts/test-python.sh
}

live_track() {
  step live-tests run_tests --no-parallel --filter "$LIVE" --skip "$LIVE_RELEASE" "${filter[@]}"
  while [ ! -e "$run_dir/release.status" ]; do sleep 1; done
  if [ "$(cat "$run_dir/release.status")" -eq 0 ]; then
    step live-release run_tests --no-parallel --filter "$LIVE_RELEASE" "${filter[@]}"
  fi
  step examples bash scripts/run-examples.sh
}

started=$(date +%s%N)
if step build swift build --build-tests; then
  tests_binary=$(swift build --show-bin-path)/AUHostPackageTests.xctest
  if [ -n "${AUHOST_TEST_SERIAL:-}" ]; then
    run_cpu_track
    (python_track)
    live_track
  else
    echo "== the CPU, Python and live tracks side by side (lines of the last two begin with 'python| ' and 'live| ')"
    { live_track 2>&1 | sed -u 's/^/live| /'; } &
    live_pid=$!
    { python_track 2>&1 | sed -u 's/^/python| /'; } &
    python_pid=$!
    run_cpu_track
    wait "$live_pid" "$python_pid"
  fi
fi
ended=$(date +%s%N)

failed=0
# Whatever a test left in the temporary folder (it should leave nothing); SwiftPM's own lock
# files and TemporaryDirectory.* folders are not the tests'.
left=$(cd "$test_tmp" && find . -mindepth 1 -maxdepth 1 ! -name '*.lock' ! -name 'TemporaryDirectory.*' | sort)
if [ -n "$left" ]; then
  echo "make test: the tests left these in the temporary folder:"
  echo "$left" | head -20
  failed=1
fi

echo
if [ -n "${AUHOST_TEST_SERIAL:-}" ]; then
  echo "== where the time went (one step after another)"
else
  echo "== where the time went (three tracks side by side: release and tests; python; live-tests, live-release and examples)"
fi
while read -r name milliseconds status; do
  result=ok
  [ "$status" -eq 0 ] || { result="FAILED ($status)"; failed=1; }
  printf '%-12s %7d.%d s  %s\n' "$name" $((milliseconds / 1000)) $((milliseconds % 1000 / 100)) "$result"
done <"$run_dir/steps"
for expected in build release tests python live-tests live-release examples; do
  grep -q "^$expected " "$run_dir/steps" || { echo "make test: step $expected did not run"; failed=1; }
done
total=$(((ended - started) / 1000000))
printf '%-12s %7d.%d s (wall)\n' total $((total / 1000)) $((total % 1000 / 100))
# The slowest live tests, from Swift Testing's "Test X passed after N seconds" lines (they run
# one at a time; the CPU track's tests start together, so their times say little).
sed -nE 's/^.{1,3}Test (.{1,60}).* (passed|failed) after ([0-9.]+) seconds.*/\3|\1|\2/p' "$run_dir"/live-tests.log 2>/dev/null |
  grep -v '|run with ' | sort -t'|' -k1 -rn | head -6 | awk -F'|' '{ printf "  %7.1f s  %-8s %s\n", $1, $3, $2 }'
exit "$failed"
