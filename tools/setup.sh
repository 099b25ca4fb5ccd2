#!/usr/bin/env bash
# Sourced by tools/run and tools/test: installs missing Debian packages (listed in
# tools/packages.txt) and configures/builds build/ when stale. Prints only what it does.
set -euo pipefail
LQ_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LQ_BUILD=${LQ_BUILD:-$LQ_ROOT/build}

lq_install_missing() {
    local missing=() pkg
    while read -r pkg; do
        [[ -z "$pkg" || "$pkg" == \#* ]] && continue
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$pkg")
        fi
    done <"$LQ_ROOT/tools/packages.txt"
    [[ ${#missing[@]} -eq 0 ]] && return 0
    local sudo=()
    if [[ $(id -u) -ne 0 ]]; then
        if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
            sudo=(sudo -n)
        else
            echo "liquidcl: missing Debian packages: ${missing[*]}" >&2
            echo "liquidcl: install them with: sudo apt-get install ${missing[*]}" >&2
            exit 2
        fi
    fi
    echo "liquidcl: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq >&2
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

lq_build() {
    local jobs
    jobs=$(nproc 2>/dev/null || echo 2)
    if [[ ! -f "$LQ_BUILD/CMakeCache.txt" ]]; then
        cmake -S "$LQ_ROOT" -B "$LQ_BUILD" -DCMAKE_BUILD_TYPE="${LQ_BUILD_TYPE:-RelWithDebInfo}" >&2
    fi
    cmake --build "$LQ_BUILD" -j "$jobs" >&2
}

lq_install_missing
lq_build
