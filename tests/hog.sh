#!/usr/bin/env bash
# Run a command with a CPU hog beside it: one busy loop per hog (default
# one, HOGS=N), so tests that depend on this machine keeping up with a
# simulated clock are tried on a machine that is not quiet.  No test may
# pass only on a fast or idle machine; .ci/run runs the emulation and file
# suite tests this way once.
#
#   tests/hog.sh CMD [ARGS...]
set -u
hogs=()
for ((i = 0; i < ${HOGS:-1}; i++)); do
	bash -c 'while :; do :; done' &
	hogs+=($!)
done
trap 'kill "${hogs[@]}" 2>/dev/null' EXIT
echo "with ${#hogs[@]} CPU hog(s) running beside it: $*"
"$@"
