#!/bin/sh
# The system packages the browser tests need, installed where missing: on Debian, as root, through
# apt-get; elsewhere (or not root) it says what to install and fails. A machine that has them all is
# left as it is, so make runs it before every browser suite. npm packages are not here: make installs
# each folder's from its lock file (npm ci).
set -eu

# One line each: the file the tests run, then the Debian package that provides it.
needs="${CHROMIUM:-/usr/bin/chromium} chromium"

missing=
while read -r file package; do
	[ -n "$file" ] || continue
	[ -x "$file" ] || missing="$missing $package"
done <<EOF_NEEDS
$needs
EOF_NEEDS
[ -n "$missing" ] || exit 0

if [ -f /etc/debian_version ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
	echo "deps: installing Debian packages:$missing"
	apt-get update -qq
	# shellcheck disable=SC2086 # one word per package
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
	exit 0
fi
if [ -f /etc/debian_version ]; then
	echo "deps: the browser tests need Debian packages that are missing; install them: sudo apt-get install$missing" >&2
else
	echo "deps: the browser tests need these (Debian package names; install your system's equivalents):$missing" >&2
	echo "      CHROMIUM=PATH names a Chromium elsewhere than /usr/bin/chromium." >&2
fi
exit 1
