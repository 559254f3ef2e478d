# Shared by scripts/run.sh and scripts/test.sh: install what the build needs
# (idempotent, quiet when everything is present) and build incrementally.
# Run as root on Debian bookworm. Sourced, not executed.

HOGLAKE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Debian packages the build, the tests and the embedded server use.
HOGLAKE_APT_PACKAGES=(
  g++ cmake ninja-build ccache pkg-config git
  libgtest-dev libgmock-dev
  libcli11-dev libedit-dev
  flatbuffers-compiler libflatbuffers-dev
  rapidjson-dev
  libpq-dev postgresql-15
  libpg-query-dev libprotobuf-c-dev
  libcpp-httplib-dev
  libzstd-dev libsnappy-dev zlib1g-dev liblz4-dev libbrotli-dev
  libssl-dev
  curl libcurl4-openssl-dev
  python3 python3-venv
)

# ccache: share hits between clones of the repository in other folders.
export CCACHE_BASEDIR="$HOGLAKE_ROOT"
export CCACHE_NOHASHDIR=1

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

install_apt_packages() {
  local missing=()
  for pkg in "${HOGLAKE_APT_PACKAGES[@]}" "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$pkg")
    fi
  done
  # Node.js: any installed node/npm will do; otherwise Debian's.
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    missing+=(nodejs npm)
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

# npm packages for the interop tests, from the committed lockfile.
install_npm_packages() {
  local dir="$HOGLAKE_ROOT/tests/interop"
  if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    log "installing npm packages (npm ci)"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

# Python packages for the interop tests (the real clients, pyarrow, pytest),
# exact versions with hashes from tests/interop/python/requirements.lock,
# into a venv of Debian's python3 beside it; redone only when the lock file
# changes.
install_python_packages() {
  local dir="$HOGLAKE_ROOT/tests/interop/python"
  local venv="$dir/.venv" lock="$dir/requirements.lock"
  if [ ! -x "$venv/bin/python" ] || [ ! -f "$venv/.installed" ] || [ "$lock" -nt "$venv/.installed" ] ||
    [ "$dir/pyhoglake-src.lock" -nt "$venv/.installed" ]; then
    log "installing Python packages (venv from requirements.lock)"
    rm -rf "$venv"
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --require-hashes \
      -r "$lock"
    # pyhoglake's own test suite, from its source distribution.
    "$venv/bin/pip" download --quiet --disable-pip-version-check --no-deps --no-binary :all: \
      --require-hashes -r "$dir/pyhoglake-src.lock" -d "$venv/sdist"
    mkdir -p "$venv/pyhoglake-src"
    tar -xzf "$venv"/sdist/pyhoglake-*.tar.gz -C "$venv/pyhoglake-src" --strip-components=1
    touch "$venv/.installed"
  fi
}

# The two hotdata-ibis client generations for the Hotdata-API workload
# (tests/interop/hotdata): each lock file (gen01.lock, newest.lock; exact
# versions with hashes) into its own venv of Debian's python3 beside it
# (.venv-gen01, .venv-newest); a venv is rebuilt only when its lock changes.
install_hotdata_clients() {
  local dir="$HOGLAKE_ROOT/tests/interop/hotdata" gen venv lock
  for gen in gen01 newest; do
    venv="$dir/.venv-$gen" lock="$dir/$gen.lock"
    if [ ! -x "$venv/bin/python" ] || [ ! -f "$venv/.installed" ] || [ "$lock" -nt "$venv/.installed" ]; then
      log "installing hotdata-ibis clients ($gen, venv from $gen.lock)"
      rm -rf "$venv"
      /usr/bin/python3 -m venv "$venv"
      "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --require-hashes \
        -r "$lock"
      touch "$venv/.installed"
    fi
  done
}

# build_tree DIR [cmake args...] -- [targets...]
build_tree() {
  local dir=$1
  shift
  local cmake_args=() targets=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do cmake_args+=("$1"); shift; done
  [ "${1:-}" = "--" ] && shift
  targets=("$@")
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -S "$HOGLAKE_ROOT" -B "$dir" -G Ninja "${cmake_args[@]}" >/dev/null
  fi
  log "building $dir ${targets[*]}"
  ninja -C "$dir" -j"${HOGLAKE_JOBS:-2}" "${targets[@]}"
}
