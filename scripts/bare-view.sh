#!/usr/bin/env bash
# Runs a command as it would run on a bare machine (plain Debian with Node and what
# scripts/test-deps.sh installs): an empty HOME (no ~/.cargo, ~/.pyenv, ~/.m2, ~/.npmrc, pip or
# git settings of this machine's user), a PATH of the system's folders and Node's own, none of the
# caller's environment but what a terminal has, and no pip configuration at all (PIP_CONFIG_FILE
# set to /dev/null hides the machine's site and user files, which may name local indexes). What
# the tests need then comes from the registries they bring (test/.registry), or they fail.
#
#   scripts/bare-view.sh npm test
set -euo pipefail
home="$(mktemp -d "${TMPDIR:-/tmp}/regreen-bare-home.XXXXXX")"
trap 'rm -rf "$home"' EXIT
system_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# Node where it is installed (nodesource, a tarball, nvm): its folder holds node and npm only.
node_dir="$(dirname "$(command -v node)")"
case ":$system_path:" in *":$node_dir:"*) ;; *) system_path="$node_dir:$system_path" ;; esac
status=0
env -i \
  HOME="$home" \
  PATH="$system_path" \
  LANG=C.UTF-8 \
  TERM="${TERM:-dumb}" \
  TMPDIR="${TMPDIR:-/tmp}" \
  PIP_CONFIG_FILE=/dev/null \
  ${CI:+CI="$CI"} \
  "$@" || status=$?
exit "$status"
