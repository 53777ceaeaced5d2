#!/usr/bin/env bash
# Run every test suite (the lit suites under test/ and the C++ unit tests)
# against a build directory, and end with the line "N passed, N failed".
#   usage: test/run-tests.sh [BUILD_DIR]
set -u
cd "$(dirname "$0")/.."
BUILD=${1:-build}
LIT=${LIT:-/usr/lib/llvm-22/bin/lit}

cmake --build "$BUILD" --target tilec tile-opt tile-run tile-unittests || {
  echo "0 passed, 1 failed"
  exit 1
}

"$LIT" -v --xunit-xml-output "$BUILD/lit-results.xml" "$BUILD/test"
"$BUILD/unittests/tile-unittests" --gtest_output="xml:$BUILD/gtest-results.xml"

# Count the results of both suites from their XML reports.
python3 - "$BUILD/lit-results.xml" "$BUILD/gtest-results.xml" <<'PY'
import sys
import xml.etree.ElementTree as ET

passed = failed = 0
for path in sys.argv[1:]:
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        failed += 1  # a suite that produced no report counts as a failure
        continue
    for case in root.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is None:
            passed += 1
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
