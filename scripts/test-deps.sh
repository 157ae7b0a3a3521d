#!/usr/bin/env bash
# What the tests need beyond what `regreen fix` needs, installed when missing (Debian/Ubuntu).
set -euo pipefail
# Debian packages the tests use: the sandbox (bubblewrap, socat), search (ripgrep), git (with
# git-http-backend for the emulated GitHub), python3 with venv and pytest (the verdict tests run real pytest), pandas and matplotlib (the eval
# kernels; Debian's python3-* packages are for /usr/bin/python3), the debug adapters (debugpy,
# delve with Go, lldb, and gcc to build the C program it debugs), curl (the setup-network test)
# and procps (pgrep, process checks); Poetry (the Poetry project's set-up runs Poetry itself); Ruby
# with Bundler (a Gemfile's set-up runs Bundler; the tests' gem source is built by RubyGems); redis-server (the queue tests start their own servers on free
# ports), chromium (the jobs page, driven by playwright-core), make + g++ for better-sqlite3's
# native build by node-gyp during npm ci.
packages=(bubblewrap socat ripgrep git python3 python3-venv python3-pytest python3-pandas python3-matplotlib
  python3-debugpy python3-poetry ruby bundler delve golang-go lldb gcc curl procps redis-server chromium make g++)
need=()
# The ecosystem tests run each client for real: Rust's cargo, a JDK with Maven and Gradle (their
# dependencies come from the operator's Maven repository, ~/.m2/repository, as a local registry).
# A toolchain already on PATH (rustup's cargo, say) is used as it is.
command -v cargo >/dev/null || packages+=(cargo)
command -v javac >/dev/null || packages+=(default-jdk-headless)
command -v mvn >/dev/null || packages+=(maven)
command -v gradle >/dev/null || packages+=(gradle)
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || need+=("$package")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi

# The package-manager tests serve pnpm and Yarn from an npm registry of their own on loopback
# (without signatures, as many mirrors serve it), and the first-use tests serve what regreen
# fetches when a tool first needs it (pyright, two small ast-grep grammars and their helper) at
# the versions package-lock.json pins: their tarballs are fetched once, here, through this
# machine's ordinary npm configuration.
root="$(cd "$(dirname "$0")/.." && pwd)"
registry_dir="$root/test/.registry/npm"
mkdir -p "$registry_dir"
locked() { node -p "require('$root/package-lock.json').packages['node_modules/$1'].version"; }
specs=(pnpm@9.15.9 yarn@1.22.22 @yarnpkg/cli-dist@4.18.1)
for name in pyright @ast-grep/lang-json @ast-grep/lang-yaml @ast-grep/setup-lang; do
  specs+=("$name@$(locked "$name")")
done
for spec in "${specs[@]}"; do
  name="${spec%@*}"
  file="$registry_dir/$(echo "$name" | sed 's#^@##; s#/#-#')-${spec##*@}.tgz"
  [ -s "$file" ] || (cd "$registry_dir" && npm pack "$spec" --silent >/dev/null)
done

# The Python tests install from a package index of their own on loopback (test/support/pypi-index.ts,
# PEP 503), served from wheels downloaded once, here, through this machine's ordinary pip
# configuration, with their dependencies, for Debian's python3 (the interpreter the tests' projects
# run on): pytest, what a project's requirements name, the build backend of an editable install, and
# the debug adapter at the version regreen pins.
pypi_dir="$root/test/.registry/pypi"
debugpy="$(sed -n "s/.*DEBUGPY_VERSION = '\\([^']*\\)'.*/\\1/p" "$root/tools/debug/adapters.ts")"
wheels=(pytest==8.4.2 cachetools setuptools wheel "debugpy==$debugpy")
if [ "$(cat "$pypi_dir/.fetched" 2>/dev/null)" != "${wheels[*]}" ]; then
  venv="$(mktemp -d)"
  /usr/bin/python3 -m venv "$venv"
  mkdir -p "$pypi_dir"
  "$venv/bin/python" -m pip download --quiet --disable-pip-version-check --only-binary=:all: \
    --dest "$pypi_dir" "${wheels[@]}"
  rm -rf "$venv"
  echo "${wheels[*]}" >"$pypi_dir/.fetched"
fi

# The Java tests' projects resolve their dependencies (and Maven's plugins) from a repository of
# the tests' own, test/.registry/maven: test/fixtures/maven-calc, and for the Gradle project
# (test/fixtures/gradle-calc) a Maven project naming what its build resolves
# (test/fixtures/gradle-calc-deps). Each builds once through this machine's ordinary Maven
# configuration (which fills ~/.m2 from Maven Central on a user's machine), then again into the
# tests' repository with that first one as its only remote, so that it holds exactly what the
# builds resolve (`clean test`: CI's usual Maven command cleans first).
maven_dir="$root/test/.registry/maven"
maven_projects=(maven-calc gradle-calc-deps)
pom_sum="$(cd "$root/test/fixtures" && cat "${maven_projects[@]/%//pom.xml}" | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$maven_dir/.fetched" 2>/dev/null)" != "$pom_sum" ]; then
  for project in "${maven_projects[@]}"; do
    build="$(mktemp -d)"
    cp -r "$root/test/fixtures/$project/." "$build/"
    (cd "$build" && mvn -B -q clean test -Dmaven.test.failure.ignore=true >/dev/null)
    printf '<settings><mirrors><mirror><id>filled</id><mirrorOf>*</mirrorOf><url>file://%s</url></mirror></mirrors></settings>\n' \
      "$HOME/.m2/repository" >"$build/settings.xml"
    rm -rf "$build/target"
    (cd "$build" && mvn -B -q -s settings.xml -Dmaven.repo.local="$maven_dir" clean test \
      -Dmaven.test.failure.ignore=true >/dev/null)
    rm -rf "$build"
  done
  echo "$pom_sum" >"$maven_dir/.fetched"
fi

# As root, regreen runs sandboxed commands as an unprivileged host uid, so the host's permissions
# apply to what it shares read-only: the operator's Maven repository must be readable by others to
# be shared (what `regreen doctor` and the job's trace say when it is not). Share this machine's.
if [ "$(id -u)" -eq 0 ] && [ -d "$HOME/.m2/repository" ]; then
  chmod -R o+rX "$HOME/.m2/repository"
fi
