#!/usr/bin/env bash
# Installs every Debian package pyasc needs to build, test and run; safe to run again.
set -euo pipefail
packages=(
  g++ cmake ninja-build ccache git
  libhalide14-0-dev llvm-14-dev llvm-14-tools libhwy-dev
  libcli11-dev libyaml-cpp-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-dev python3-numpy python3-matplotlib python3-distributed python3-pytest pybind11-dev chromium
  clang-14 libclang-common-14-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
