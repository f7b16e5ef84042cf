#!/usr/bin/env bash
# Installs Schemathesis from PyPI into a venv (WSH_SCHEMATHESIS_VENV, default /tmp/wsh-schemathesis)
# when it is missing, pinned to one version so that bench/fuzz-compare's runs can be compared.
# bench/fuzz-compare finds it at $venv/bin/schemathesis.
set -euo pipefail
source "$(dirname "$0")/make-venv.sh"
version="4.32.5"
venv="${WSH_SCHEMATHESIS_VENV:-/tmp/wsh-schemathesis}"
if [ ! -x "$venv/bin/schemathesis" ] \
   || [ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("schemathesis"))' 2>/dev/null)" != "$version" ]; then
  make_venv "$venv" "schemathesis==$version"
fi
