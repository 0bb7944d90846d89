#!/bin/sh
# Fails when git tracks a file over 1 MB that is not data we wrote: build outputs (binaries, wasm
# modules, bundles) belong in .gitignore, not in the repository's history.
# Our own data files may be larger, and so may source we carry patched from a third party
# (third_party/, each folder with its PATCH.md): they are allowed by path below.
set -eu
cd "$(dirname "$0")/.."
limit=1000000
# Data we wrote and carried third-party source, allowed at any size (paths or path prefixes, one a
# line): go-app's generated HTML element file is 1.6 MB of Go source.
allowed='dataset/builtin.pack
dataset/builtin/
third_party/go-app/pkg/app/html_gen.go'

if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "check-tracked-sizes: SKIPPED, not a git checkout (no tracked files to check)" >&2
	exit 0
fi
# The sizes of the blobs in the index (what a commit would hold), not of the files on disk.
over=$(git ls-files --format='%(objectname) %(path)' |
	git cat-file --batch-check='%(objectsize) %(rest)' |
	awk -v limit="$limit" '$1 > limit' |
	while read -r size path; do
		ok=0
		for a in $allowed; do
			case "$path" in "$a"*) ok=1 ;; esac
		done
		[ "$ok" = 1 ] || echo "$path ($size bytes)"
	done)
if [ -n "$over" ]; then
	echo "tracked files over $limit bytes that are not data we wrote (build outputs go in .gitignore):" >&2
	echo "$over" >&2
	exit 1
fi
echo "check-tracked-sizes: no tracked file over $limit bytes outside our data"
