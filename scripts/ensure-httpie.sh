#!/usr/bin/env bash
# HTTPie for the tests of `show NAME --httpie` (Tests/EndToEndTests/ShowCommandTests.swift runs each
# printed command with it): a venv at $WSH_HTTPIE_VENV (default /tmp/wsh-httpie) with httpie from
# PyPI, made when missing. Without it those tests check curl only.
set -euo pipefail
venv="${WSH_HTTPIE_VENV:-/tmp/wsh-httpie}"
if [ -x "$venv/bin/http" ]; then exit 0; fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet httpie
"$venv/bin/http" --version
