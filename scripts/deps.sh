#!/usr/bin/env bash
# What `regreen fix` needs, installed when missing (Debian/Ubuntu): the sandbox (bubblewrap, and
# socat for its registry bridge), ripgrep for search, git. With sudo only when not already root
# (most containers run as root and have no sudo).
set -euo pipefail
packages=(bubblewrap socat ripgrep git)
need=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || need+=("$package")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi
