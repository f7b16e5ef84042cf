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

# make_pinned_venv VENV COMMAND PACKAGE VERSION: the venv at VENV made (or made again) unless it
# has VENV/bin/COMMAND and PACKAGE at exactly VERSION, so that measured runs compare like with like.
make_pinned_venv() {
  local venv="$1" command="$2" package="$3" version="$4"
  if [ ! -x "$venv/bin/$command" ] \
     || [ "$("$venv/bin/python" -c "import importlib.metadata as m; print(m.version('$package'))" 2>/dev/null)" != "$version" ]; then
    make_venv "$venv" "$package==$version"
  fi
}
