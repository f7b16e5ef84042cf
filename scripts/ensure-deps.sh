#!/usr/bin/env bash
# Installs what wsh needs from Debian's packages when it is missing: libedit's, SQLite's, zlib's, brotli's and libxml2's headers
# (and their static libraries, which scripts/build-release links), pkg-config, openssl (whose
# s_server is a TLS server the tests start, and which makes their certificates), and nginx and
# tinyproxy, the real TLS/HTTP/2/gzip server and proxy of the transport's end-to-end tests; xmllint
# (libxml2-utils) and chromium, which check wsh test's JUnit report against its schema and load its HTML report.
set -euo pipefail
missing=()
[ -f /usr/include/histedit.h ] || missing+=(libedit-dev)
[ -f /usr/include/sqlite3.h ] || missing+=(libsqlite3-dev)
[ -f /usr/include/zlib.h ] || missing+=(zlib1g-dev)
[ -f /usr/include/brotli/decode.h ] || missing+=(libbrotli-dev)
# libxml2 for the xpath filter: headers and libxml2.a (libxml2-dev), and liblzma.a, which libxml2.a
# needs when scripts/build-release links it statically (libxml2-dev does not depend on it).
[ -f /usr/include/libxml2/libxml/xpath.h ] || missing+=(libxml2-dev)
dpkg -s liblzma-dev >/dev/null 2>&1 || missing+=(liblzma-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
[ -x /usr/bin/openssl ] || missing+=(openssl)
[ -x /usr/sbin/nginx ] || missing+=(nginx)
[ -x /usr/bin/tinyproxy ] || missing+=(tinyproxy)
# squid with its shipped configuration, which refuses CONNECT to ports but 443: plain http through a proxy must not tunnel.
[ -x /usr/sbin/squid ] || missing+=(squid)
# The Public Suffix List the cookie jar reads at run time (the .deb depends on it).
[ -f /usr/share/publicsuffix/public_suffix_list.dat ] || missing+=(publicsuffix)
[ -x /usr/bin/xmllint ] || missing+=(libxml2-utils)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  echo "wsh: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:/opt/swift/bin:$PATH"
