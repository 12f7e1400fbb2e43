#!/usr/bin/env bash
# Installs a real VS Code for the integration and e2e suites: code-server (VS Code's server + web workbench) from npm
# into .vscode-test/, plus the Debian packages it builds with and the Chromium that drives it. Reused when present.
#
# Usage: bash scripts/vscode-test/install.sh        (AGENT_IMMUNE_SKIP_APT=1 skips apt; needs root otherwise)
# Prints the code-server binary path on its last line.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
CS_VERSION=4.100.3          # newest code-server whose engines.node is "20"; it is VS Code 1.100.3
RG_PKG_VERSION=1.15.11      # @vscode/ripgrep pinned in code-server 4.100.3's lib/vscode shrinkwrap
RG_ASSET=ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz   # the asset its postinstall would download (x64)
CACHE=${AGENT_IMMUNE_VSCODE_CACHE:-$REPO/.vscode-test}
DEST=$CACHE/code-server-$CS_VERSION
CS=$DEST/node_modules/.bin/code-server
APT_PACKAGES=(build-essential python3 pkg-config libkrb5-dev libsecret-1-dev libx11-dev libxkbfile-dev ripgrep chromium)

log() { echo "[vscode-test install] $*" >&2; }
T0=$(date +%s)

# Debian packages: a toolchain for code-server's native modules, ripgrep (seeded below), chromium (the e2e browser).
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ] && [ -z "${AGENT_IMMUNE_SKIP_APT:-}" ] && [ "$(id -u)" != 0 ]; then
  log "missing Debian packages; as root run: apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
  exit 1
elif [ ${#missing[@]} -gt 0 ] && [ -z "${AGENT_IMMUNE_SKIP_APT:-}" ]; then
  log "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # apt-cache lists may be absent on a fresh machine: update once, then install.
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
elif [ ${#missing[@]} -gt 0 ]; then
  log "warning: missing Debian packages (AGENT_IMMUNE_SKIP_APT set): ${missing[*]}"
fi

if [ -x "$CS" ] && [ -f "$DEST/.complete" ]; then
  log "code-server $CS_VERSION already installed in $DEST"
  echo "$CS"
  exit 0
fi

# A half-finished install (interrupted run) is removed and redone.
rm -rf "$DEST"
mkdir -p "$DEST/tmp"
SCRATCH=$DEST/tmp
# @vscode/ripgrep's postinstall downloads rg from GitHub unless this cache file exists: seed it with Debian's rg.
mkdir -p "$SCRATCH/vscode-ripgrep-cache-$RG_PKG_VERSION"
tar czf "$SCRATCH/vscode-ripgrep-cache-$RG_PKG_VERSION/$RG_ASSET" -C "$(dirname "$(command -v rg)")" rg

log "npm install code-server@$CS_VERSION (builds native modules; about 1-2 min)"
echo '{"name":"agent-immune-vscode-test","private":true}' > "$DEST/package.json"
# unsafe_perm: code-server's postinstall refuses root without it. nodedir=/usr: node-gyp uses the installed Node
# headers instead of downloading them. yes=true: a postinstall runs `npx node-gyp`, which aborts on a prompt otherwise.
(
  cd "$DEST"
  TMPDIR=$SCRATCH XDG_CACHE_HOME=$SCRATCH/xdg-cache \
  npm_config_unsafe_perm=true npm_config_nodedir=/usr npm_config_yes=true \
    npm install --no-audit --no-fund --no-save --loglevel=error "code-server@$CS_VERSION" >&2
)
test -x "$DEST/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg"
"$CS" --version >&2
rm -rf "$SCRATCH"
touch "$DEST/.complete"
log "installed in $(( $(date +%s) - T0 ))s ($(du -sh "$DEST" | cut -f1))"
echo "$CS"
