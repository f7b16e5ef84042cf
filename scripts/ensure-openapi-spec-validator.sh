#!/usr/bin/env bash
# Installs openapi-spec-validator from PyPI into a venv (WSH_OPENAPI_VALIDATOR_VENV, default
# /tmp/wsh-openapi-validator) when it is missing: the export tests check that another tool reads
# what `openapi export` writes. The tests find it at $venv/bin/openapi-spec-validator.
set -euo pipefail
source "$(dirname "$0")/make-venv.sh"
venv="${WSH_OPENAPI_VALIDATOR_VENV:-/tmp/wsh-openapi-validator}"
if [ ! -x "$venv/bin/openapi-spec-validator" ]; then
  make_venv "$venv" openapi-spec-validator
fi
