#!/usr/bin/env bash
# Installs Locust from PyPI into a venv (WSH_LOCUST_VENV, default /tmp/wsh-locust) when it is
# missing, pinned to one version: the end-to-end tests run the locustfiles `export locust` writes
# with it, in one process and as a master with two workers.
set -euo pipefail
source "$(dirname "$0")/make-venv.sh"
make_pinned_venv "${WSH_LOCUST_VENV:-/tmp/wsh-locust}" locust locust 2.47.0
