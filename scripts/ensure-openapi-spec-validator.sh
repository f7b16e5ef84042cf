#!/usr/bin/env bash
# Installs openapi-spec-validator from PyPI into a venv (WSH_OPENAPI_VALIDATOR_VENV, default
# /tmp/wsh-openapi-validator) when it is missing: the export tests check that another tool reads
# what `openapi export` writes. The tests find it at $venv/bin/openapi-spec-validator.
set -euo pipefail
venv="${WSH_OPENAPI_VALIDATOR_VENV:-/tmp/wsh-openapi-validator}"
if [ ! -x "$venv/bin/openapi-spec-validator" ]; then
  echo "wsh: installing openapi-spec-validator into $venv" >&2
  if ! python3 -m venv "$venv" >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$venv"
  fi
  "$venv/bin/pip" install -q openapi-spec-validator
fi
