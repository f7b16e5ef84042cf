#!/usr/bin/env bash
# Installs Schemathesis from PyPI into a venv (WSH_SCHEMATHESIS_VENV, default /tmp/wsh-schemathesis)
# when it is missing, pinned to one version so that bench/fuzz-compare's runs can be compared.
# bench/fuzz-compare finds it at $venv/bin/schemathesis.
set -euo pipefail
source "$(dirname "$0")/make-venv.sh"
make_pinned_venv "${WSH_SCHEMATHESIS_VENV:-/tmp/wsh-schemathesis}" schemathesis schemathesis 4.32.5
