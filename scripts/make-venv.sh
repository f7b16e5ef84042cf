# Sourced by the ensure-*.sh scripts: make_venv VENV PACKAGE... makes a Python venv at VENV (with
# Debian's python3-venv installed by apt first when venv is missing) and installs the packages
# from PyPI into it.
make_venv() {
  local venv="$1"
  shift
  echo "wsh: installing $* into $venv" >&2
  if ! python3 -m venv "$venv" >/dev/null 2>&1; then
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$venv"
  fi
  "$venv/bin/pip" install -q "$@"
}
