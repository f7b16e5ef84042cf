#!/usr/bin/env bash
# Installs httpbin and gunicorn from PyPI into a venv (WSH_HTTPBIN_VENV, default /tmp/wsh-httpbin) when
# they are missing: the item tests compare what httpbin saw from wsh with what it saw from curl.
# The tests start gunicorn from that venv on a free loopback port and stop it by its PID.
set -euo pipefail
source "$(dirname "$0")/make-venv.sh"
venv="${WSH_HTTPBIN_VENV:-/tmp/wsh-httpbin}"
if [ ! -x "$venv/bin/gunicorn" ] || ! "$venv/bin/python" -c 'import httpbin' >/dev/null 2>&1; then
  make_venv "$venv" httpbin gunicorn
fi
command -v curl >/dev/null 2>&1 || {
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq curl >/dev/null
}
