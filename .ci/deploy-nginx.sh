#!/usr/bin/env bash
# docs/deploy.md, run on the loopback: the production build (`node ace build`, `npm ci --omit=dev`)
# with the settings of deploy/adonis-rbac.env on a PostgreSQL database of its own, migrated and
# seeded by the documented commands, started as deploy/adonis-rbac.service starts it; Debian's nginx
# with deploy/nginx/adonis-rbac.conf itself (ports, paths and the host name substituted; TLS with a
# throw-away self-signed certificate) serving console/dist and proxying /api. Then the `deploy`
# suite (tests/deploy/) signs in through nginx in Chromium and checks the client address the app
# records. Ports: DEPLOY_APP_PORT (3413), DEPLOY_HTTPS_PORT (3423), DEPLOY_HTTP_PORT (3424);
# database: DEPLOY_PG_DB (adonis_rbac_deploy, dropped and created; its backup is restored into
# DEPLOY_PG_DB_restored, compared, dropped). Everything else stays in tmp/deploy.
# DEPLOY_REUSE_BUILD=1 keeps build/ from the last run (when only tests or deploy/ changed).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
START=$SECONDS
say() { echo "--- [$((SECONDS - START)) s] $*"; }

APP_PORT=${DEPLOY_APP_PORT:-3413}
HTTPS_PORT=${DEPLOY_HTTPS_PORT:-3423}
# The deployment's SMTP server: the deploy suite receives its mail there (smtp-server).
SMTP_PORT=${DEPLOY_SMTP_PORT:-3433}
HTTP_PORT=${DEPLOY_HTTP_PORT:-3424}
DB=${DEPLOY_PG_DB:-adonis_rbac_deploy}
MAX_INSTALL_MB=150
WORK=$ROOT/tmp/deploy
[ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -ge 24 ] || . bin/node24.sh

# Debian's nginx (nginx-light has every module the site uses).
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
  say "apt-get install nginx-light"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

APP_PID=""
stop_all() {
  [ -f "$WORK/nginx.pid" ] && kill -QUIT "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
  # The app, and strace's child when it runs under strace.
  [ -n "$APP_PID" ] && { pkill -TERM -P "$APP_PID" 2>/dev/null; kill -TERM "$APP_PID" 2>/dev/null; } || true
}
trap stop_all EXIT
rm -rf "$WORK"
mkdir -p "$WORK/etc" "$WORK/tls" "$WORK/nginx-temp"

say "console/dist"
if [ ! -f console/dist/index.html ]; then
  (cd console && npm ci --no-audit --no-fund && npm run build)
fi

if [ -n "${DEPLOY_REUSE_BUILD:-}" ] && [ -d build/node_modules ]; then
  say "DEPLOY_REUSE_BUILD: build/ of the last run"
else
  say "node ace build; npm ci --omit=dev in build/"
  node ace build >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; exit 1; }
  (cd build && npm ci --omit=dev --prefer-offline --no-audit --no-fund --loglevel=error)
fi

say "the production install: build/node_modules at most ${MAX_INSTALL_MB} MB (docs/deploy.md)"
install_mb=$(du -sm build/node_modules | cut -f1)
echo "build/node_modules: $install_mb MB ($(ls -d build/node_modules/* build/node_modules/@*/* | grep -vc '/@[^/]*$') packages at the top level)"
if [ "$install_mb" -gt "$MAX_INSTALL_MB" ]; then
  echo "build/node_modules is $install_mb MB, over the budget of $MAX_INSTALL_MB MB. The largest:"
  du -sm build/node_modules/* build/node_modules/@*/* | grep -v '/@[^/]*$' | sort -rn | head -15
  echo "A new runtime dependency, or a devDependency that build/package-lock.json kept" \
    "(bin/build_finished.ts prunes it)?"
  exit 1
fi
# The API reference page's script is in the build, its package (a devDependency) is not.
[ -f build/resources/api-docs/scalar-api-reference-*.js ] && [ ! -e build/node_modules/@scalar ] ||
  { echo "build/: no Scalar bundle in resources/api-docs, or @scalar installed (bin/build_finished.ts)"; exit 1; }

say "settings: deploy/adonis-rbac.env with fresh secrets, ENV_PATH=$WORK/etc"
secret() { node -e "console.log(require('crypto').randomBytes(48).toString('base64url'))"; }
ADMIN_PASSWORD="Deploy-$(secret | cut -c1-20)-1!"
sed -e "s/^APP_KEY=.*/APP_KEY=$(secret)/" \
  -e "s/^JWT_SECRET=.*/JWT_SECRET=$(secret)/" \
  -e "s/^PORT=.*/PORT=$APP_PORT/" \
  -e "s/^PG_USER=.*/PG_USER=${PG_USER:-postgres}/" \
  -e "s/^PG_PASSWORD=.*/PG_PASSWORD=${PG_PASSWORD:-}/" \
  -e "s/^PG_DB_NAME=.*/PG_DB_NAME=$DB/" \
  -e "s/^ADMIN_PASSWORD=.*/ADMIN_PASSWORD=$ADMIN_PASSWORD/" \
  deploy/adonis-rbac.env >"$WORK/etc/.env"
cat >>"$WORK/etc/.env" <<MAIL
SMTP_HOST=127.0.0.1
SMTP_PORT=$SMTP_PORT
MAIL_FROM="adonis-rbac <no-reply@admin.test>"
APP_URL=https://admin.test:$HTTPS_PORT
MAIL
chmod 600 "$WORK/etc/.env"
# As systemd runs the service: a clean environment plus the unit's Environment= lines (nothing
# from this shell, e.g. a PORT or PG_DB_NAME of another setup, reaches the app).
# The unit's own Environment= lines, with ENV_PATH pointing at this scenario's settings.
mapfile -t unit_env < <(sed -n 's/^Environment=//p' deploy/adonis-rbac.service | grep -v '^ENV_PATH=')
as_service() { env -i PATH="$PATH" HOME="$HOME" "${unit_env[@]}" ENV_PATH="$WORK/etc" "$@"; }

say "database $DB: created, migrated, seeded (the documented commands, in build/)"
pg=(-h 127.0.0.1 -U "${PG_USER:-postgres}")
export PGPASSWORD=${PG_PASSWORD:-}
dropdb "${pg[@]}" --if-exists "$DB"
createdb "${pg[@]}" "$DB"
(cd build && as_service node ace migration:run --force && as_service node ace db:seed) \
  >"$WORK/setup.log" 2>&1 || { cat "$WORK/setup.log"; exit 1; }
grep -c 'migrated' "$WORK/setup.log" | sed 's/$/ migrations run/'
grep -F 'Created administrator "admin"' "$WORK/setup.log"

say "systemd-analyze verify deploy/adonis-rbac.service (paths of this machine)"
sed -e "s#/opt/adonis-rbac/current#$ROOT/build#g" -e "s#/usr/bin/node#$(command -v node)#" \
  deploy/adonis-rbac.service >"$WORK/adonis-rbac.service"
if command -v systemd-analyze >/dev/null; then
  verify=$(systemd-analyze verify "$WORK/adonis-rbac.service" 2>&1) || true
  if [ -n "$verify" ]; then echo "$verify"; exit 1; fi
else
  echo "systemd-analyze missing: unit not verified"
fi

say "the app: the unit's ExecStart in its WorkingDirectory"
exec_start=$(sed -n 's/^ExecStart=//p' "$WORK/adonis-rbac.service")
# Under strace when there is one: the system calls it makes are checked against the unit's
# SystemCallFilter at the end (there is no systemd here to enforce it).
tracer=()
command -v strace >/dev/null && tracer=(strace -f -qq -c -o "$WORK/syscalls.txt")
# shellcheck disable=SC2086
(cd build && exec "${tracer[@]}" env -i PATH="$PATH" HOME="$HOME" "${unit_env[@]}" \
  ENV_PATH="$WORK/etc" $exec_start) >"$WORK/app.log" 2>&1 &
APP_PID=$!
for _ in $(seq 1 60); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$APP_PORT/api/health/ready")" = 200 ] && break
  kill -0 "$APP_PID" 2>/dev/null || { cat "$WORK/app.log"; exit 1; }
  sleep 0.5
done

say "nginx: deploy/nginx/adonis-rbac.conf on 127.0.0.1/[::1]:$HTTPS_PORT (TLS) and :$HTTP_PORT"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
  -subj /CN=admin.test -addext 'subjectAltName=DNS:admin.test,IP:127.0.0.1,IP:::1' \
  -keyout "$WORK/tls/privkey.pem" -out "$WORK/tls/fullchain.pem" 2>/dev/null
sed -e "s#listen 443 #listen 127.0.0.1:$HTTPS_PORT #; s#listen \[::\]:443 #listen [::1]:$HTTPS_PORT #" \
  -e "s#listen 80;#listen 127.0.0.1:$HTTP_PORT;#; s#listen \[::\]:80;#listen [::1]:$HTTP_PORT;#" \
  -e "s#server 127.0.0.1:3333;#server 127.0.0.1:$APP_PORT;#" \
  -e "s#admin.example.com#admin.test#g" \
  -e "s#/etc/letsencrypt/live/admin.test#$WORK/tls#" \
  -e "s#/var/www/adonis-rbac-console#$ROOT/console/dist#" \
  -e "s#/var/log/nginx/#$WORK/nginx-#" \
  -e "s#adonis_rbac_tls#adonis_rbac_tls_ci#" \
  deploy/nginx/adonis-rbac.conf >"$WORK/site.conf"
for pattern in "127.0.0.1:$HTTPS_PORT ssl" "127.0.0.1:$APP_PORT;" "$WORK/tls/privkey.pem" "root $ROOT/console/dist;"; do
  grep -qF "$pattern" "$WORK/site.conf" || { echo "substitution failed: $pattern"; exit 1; }
done
# The http block of Debian's /etc/nginx/nginx.conf, minus its sites (they listen on port 80).
cat >"$WORK/nginx.conf" <<EOF
# CI only: workers as root to read the work tree; pid, logs and temp files in tmp/deploy.
user root;
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 256; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  client_body_temp_path $WORK/nginx-temp/body;
  proxy_temp_path $WORK/nginx-temp/proxy;
  fastcgi_temp_path $WORK/nginx-temp/fastcgi;
  uwsgi_temp_path $WORK/nginx-temp/uwsgi;
  scgi_temp_path $WORK/nginx-temp/scgi;
  include $WORK/site.conf;
}
EOF
"$NGINX" -t -q -c "$WORK/nginx.conf"
"$NGINX" -c "$WORK/nginx.conf"

say "deploy suite: Chromium through nginx"
# The test process itself runs on the test settings (.env.test, its own SQLite file); it reaches
# the deployment only over HTTP and reads its database with a client of its own.
env \
  NODE_EXTRA_CA_CERTS="$WORK/tls/fullchain.pem" \
  DEPLOY_URL="https://admin.test:$HTTPS_PORT" DEPLOY_HTTPS_PORT="$HTTPS_PORT" \
  DEPLOY_HTTP_PORT="$HTTP_PORT" DEPLOY_APP_URL="http://127.0.0.1:$APP_PORT" \
  DEPLOY_PG_DB="$DB" DEPLOY_ADMIN_PASSWORD="$ADMIN_PASSWORD" DEPLOY_WORK="$WORK" \
  DEPLOY_SMTP_PORT="$SMTP_PORT" \
  DB_CONNECTION=sqlite SQLITE_FILE=tmp/deploy-suite.sqlite3 \
  node ace test deploy

say "SIGTERM: the app drains and exits 0; nginx then answers 503 in the error contract"
node_pid=$APP_PID
[ ${#tracer[@]} -gt 0 ] && node_pid=$(pgrep -P "$APP_PID")
kill -TERM "$node_pid"
status=0
wait "$APP_PID" || status=$?
APP_PID=""
[ "$status" = 0 ] || { echo "app exited $status"; tail -20 "$WORK/app.log"; exit 1; }
answer=$(curl -s --cacert "$WORK/tls/fullchain.pem" -w ' %{http_code}' \
  --resolve "admin.test:$HTTPS_PORT:127.0.0.1" "https://admin.test:$HTTPS_PORT/api/health")
echo "$answer"
[ "$answer" = '{"errors":[{"code":"E_UNAVAILABLE","message":"Service unavailable"}]} 503' ] ||
  { echo "unexpected answer with the app stopped"; exit 1; }
say "backup and restore with the app stopped (docs/deploy.md): pg_dump -Fc, pg_restore --no-owner into ${DB}_restored"
pg_dump "${pg[@]}" -Fc -f "$WORK/backup.dump" "$DB"
dropdb "${pg[@]}" --if-exists "${DB}_restored" 2>/dev/null
createdb "${pg[@]}" "${DB}_restored"
pg_restore "${pg[@]}" -d "${DB}_restored" --no-owner "$WORK/backup.dump"
# Every table, row for row (the migrations' own table included).
tables=$(psql "${pg[@]}" -Atc "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1" "$DB")
digest_sql=$(for table in $tables; do
  echo "SELECT '$table', count(*), md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM \"$table\" t UNION ALL"
done)
digest() { psql "${pg[@]}" -Atc "${digest_sql% UNION ALL}" "$1"; }
[ "$(digest "$DB")" = "$(digest "${DB}_restored")" ] || { echo "the restored database differs"; exit 1; }
echo "$(echo "$tables" | wc -l) tables restored row for row ($(du -h "$WORK/backup.dump" | cut -f1) dump)"
dropdb "${pg[@]}" "${DB}_restored"

say "OPENAPI_ENABLED=true: the build serves /api/docs and Scalar's bundle itself, with its pinned digest"
(cd build && exec env -i PATH="$PATH" HOME="$HOME" "${unit_env[@]}" ENV_PATH="$WORK/etc" \
  OPENAPI_ENABLED=true node bin/server.js) >"$WORK/app-openapi.log" 2>&1 &
APP_PID=$!
for _ in $(seq 1 60); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$APP_PORT/api/health/live")" = 200 ] && break
  kill -0 "$APP_PID" 2>/dev/null || { cat "$WORK/app-openapi.log"; exit 1; }
  sleep 0.5
done
page=$(curl -sf "http://127.0.0.1:$APP_PORT/api/docs")
script=$(echo "$page" | sed -n 's/.*<script src="\([^"]*\)" integrity="\([^"]*\)".*/\1 \2/p')
[ -n "$script" ] || { echo "no pinned script in /api/docs:"; echo "$page"; exit 1; }
served=sha384-$(curl -sf "http://127.0.0.1:$APP_PORT${script% *}" | openssl dgst -sha384 -binary | base64 -w0)
[ "$served" = "${script#* }" ] || { echo "${script% *}: digest $served, the page pins ${script#* }"; exit 1; }
echo "/api/docs: ${script% *} served, $served as pinned (no @scalar in build/node_modules)"
kill -TERM "$APP_PID"
wait "$APP_PID" || { echo "app (OPENAPI_ENABLED) exited $?"; exit 1; }
APP_PID=""

if [ ${#tracer[@]} -gt 0 ] && command -v systemd-analyze >/dev/null; then
  say "system calls the app made (strace) against the unit's SystemCallFilter"
  # A group's system calls, nested groups expanded; sorted and compared in the C locale.
  export LC_ALL=C
  expand() {
    systemd-analyze syscall-filter "$1" 2>/dev/null | sed '1d' | grep -v '^ *#' | tr -s ' ' '\n' | grep -v '^$' |
      while read -r name; do
        if [ "${name#@}" != "$name" ]; then expand "$name"; else echo "$name"; fi
      done
  }
  allowed=$(for group in $(sed -n 's/^SystemCallFilter=\([^~]\)/\1/p' deploy/adonis-rbac.service); do
    expand "$group"; done | sort -u)
  denied=$(for group in $(sed -n 's/^SystemCallFilter=~//p' deploy/adonis-rbac.service); do
    expand "$group"; done | sort -u)
  used=$(awk '$NF != "total" && $NF != "syscall" && $1 !~ /^-/ {print $NF}' "$WORK/syscalls.txt" | sort -u)
  refused=$(comm -23 <(echo "$used") <(comm -23 <(echo "$allowed") <(echo "$denied")))
  [ -z "$refused" ] || { echo "the unit's SystemCallFilter would refuse:" $refused; exit 1; }
  echo "$(echo "$used" | wc -l) distinct system calls, all allowed by the unit's SystemCallFilter"
fi
say "deploy: OK"
