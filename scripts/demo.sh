#!/usr/bin/env bash
# The demo: what AUHost finds on this machine, and a close look at one unit.
set -euo pipefail
auhost=${1:-.build/debug/auhost}
echo "== auhost --version"
"$auhost" --version
echo
echo "== units by format"
for format in builtin native lv2; do
  printf '%-8s %s units\n' "$format" "$("$auhost" list --format "$format" 2>/dev/null | wc -l)"
done
echo
echo "== auhost list --type aumu (instruments)"
"$auhost" list --type aumu 2>/dev/null | head -n 12
echo
unit=aufx:splt:AUHs
if "$auhost" list --format lv2 2>/dev/null | grep -q 'http://plugin.org.uk/swh-plugins/amp'; then unit=http://plugin.org.uk/swh-plugins/amp; fi
echo "== auhost info $unit"
"$auhost" info "$unit"
