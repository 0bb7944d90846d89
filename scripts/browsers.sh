#!/bin/sh
# browsers.sh: makes sure the browsers the browser suite drives are installed (make test-browser runs
# it first). Chromium (playwright-core), Firefox ESR (puppeteer-core over WebDriver BiDi) and WebKit
# (WebKitWebDriver with MiniBrowser, under Xvfb), all Debian packages. Idempotent: it installs only
# what is missing, and only as root on Debian (apt-get); anywhere else it names what to install and
# fails, so the suite does not start without its browsers.
set -eu

missing=""
need() { # need FILE PACKAGE: PACKAGE when FILE is not there
  [ -x "$1" ] || missing="$missing $2"
}
need /usr/bin/chromium chromium
need /usr/bin/firefox-esr firefox-esr
need /usr/bin/WebKitWebDriver webkit2gtk-driver
minibrowser=no
for f in /usr/lib/*/webkit2gtk-4.1/MiniBrowser; do [ -x "$f" ] && minibrowser=yes; done
[ "$minibrowser" = yes ] || missing="$missing webkit2gtk-driver"
need /usr/bin/Xvfb xvfb
# Each package once, in a stable order.
missing=$(printf '%s\n' $missing | sort -u | tr '\n' ' ' | sed 's/ *$//')
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ] && [ -f /etc/debian_version ] && command -v apt-get >/dev/null 2>&1; then
  echo "browsers.sh: installing $missing"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
  exit 0
fi
echo "browsers.sh: the browser suite needs these Debian packages, missing here: $missing" >&2
echo "  install them (as root: apt-get install $missing), or the same browsers from your system's packages" >&2
exit 1
