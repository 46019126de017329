#!/usr/bin/env bash
# Installs what the service and its tests need and is not there yet: npm packages, the browser
# app's build, Debian's redis-server and FerretDB 1.24 (built with Go). Idempotent; prints nothing
# when all is in place.
set -euo pipefail
cd "$(dirname "$0")/.."

FERRETDB_MODULE=github.com/FerretDB/FerretDB
FERRETDB_VERSION=v1.24.2
say() { echo "[setup] $*" >&2; }
fail() { echo "[setup] ERROR: $*" >&2; exit 1; }

# --- Node.js ------------------------------------------------------------------------------
command -v node >/dev/null || fail "Node.js 20.19 or newer is required (https://nodejs.org)"
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
  || fail "Node.js 20.19 or newer is required; this is $(node --version)"

# --- npm packages (reinstalled when package-lock.json changes) -------------------------------
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
stamp=node_modules/.webmon-lock-hash
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_hash" ]; then
  say "installing npm packages…"
  # `npm install` honours package-lock.json; `npm ci` of npm 11.19 rejects locks that list only this
  # platform's optional packages, which is what that same npm writes.
  npm install --no-audit --no-fund --loglevel=error >&2
  echo "$lock_hash" > "$stamp"
fi

# --- The browser app (apps/web): built again only when its sources or the lock file changed ---------
web_hash=$( { sha256sum package-lock.json; find apps/web -path apps/web/dist -prune -o -type f -print0 | sort -z | xargs -0 sha256sum; } | sha256sum | cut -d' ' -f1)
web_stamp=apps/web/dist/.webmon-build-hash
if [ ! -f apps/web/dist/index.html ] || [ ! -f "$web_stamp" ] || [ "$(cat "$web_stamp")" != "$web_hash" ]; then
  say "building the browser app…"
  web_log=$(mktemp)
  npm run -s build:web >"$web_log" 2>&1 || { cat "$web_log" >&2; fail "the browser app did not build (output above)"; }
  rm -f "$web_log"
  echo "$web_hash" > "$web_stamp"
fi

# --- Debian packages: redis-server; openssl (the tests make certificates with it); sqlite3 (adds
# the _id lookup indexes FerretDB's SQLite backend lacks: libs/embedded/sqlite-id-index.ts);
# chromium (prints the client reports as PDF; the browser tests drive it; never downloaded);
# poppler-utils (the report tests read the PDFs' text with pdftotext and render a page with pdftoppm);
# iputils-ping (ICMP checks send their echo requests through it); iproute2 and procps (below);
# caddy (HTTPS for status pages' own domains: deploy/Caddyfile; the TLS test runs it) ---
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else fail "run as root or install sudo: $*"; fi; }
missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
command -v openssl >/dev/null || missing+=(openssl)
command -v sqlite3 >/dev/null || missing+=(sqlite3)
command -v chromium >/dev/null || missing+=(chromium)
command -v pdftotext >/dev/null || missing+=(poppler-utils)
command -v ping >/dev/null || missing+=(iputils-ping)
# iproute2 and procps: the ICMP tests run ping in a network namespace of their own (ip, sysctl).
command -v ip >/dev/null || missing+=(iproute2)
command -v sysctl >/dev/null || missing+=(procps)
command -v caddy >/dev/null || missing+=(caddy)
if [ ${#missing[@]} -gt 0 ]; then
  command -v apt-get >/dev/null || fail "${missing[*]} missing and apt-get is not available: install them yourself"
  say "installing ${missing[*]} with apt-get…"
  apt_log=$(mktemp)
  { as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } \
    >"$apt_log" 2>&1 || { cat "$apt_log" >&2; fail "apt-get could not install ${missing[*]} (output above)"; }
  rm -f "$apt_log"
fi

# --- FerretDB -------------------------------------------------------------------------------
# The output is captured before matching: `… | grep -q` under pipefail fails at random when grep
# exits on the first line and FerretDB, still writing, dies of SIGPIPE.
ferretdb_version() { DO_NOT_TRACK=1 "$1" --version 2>&1; }
ferretdb_ok() { [ -x "$1" ] || return 1; local out; out=$(ferretdb_version "$1") || return 1; [[ "$out" == *"version: $FERRETDB_VERSION"* ]]; }
if [ -n "${FERRETDB_BIN:-}" ]; then
  ferretdb_ok "$FERRETDB_BIN" || fail "FERRETDB_BIN=$FERRETDB_BIN is not FerretDB $FERRETDB_VERSION"
else
  command -v go >/dev/null || fail "Go is required to build FerretDB $FERRETDB_VERSION (https://go.dev/dl)"
  gobin=$(go env GOBIN); [ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"
  if ! ferretdb_ok "$gobin/ferretdb"; then
    say "building FerretDB $FERRETDB_VERSION with Go (about a minute the first time)…"
    export DO_NOT_TRACK=1
    if ! { go install "$FERRETDB_MODULE/cmd/ferretdb@$FERRETDB_VERSION" >&2 && ferretdb_ok "$gobin/ferretdb"; }; then
      # `go install` can fail where the module proxy refuses the version list it reads for
      # deprecation notices, and the module's zip lacks build/version/version.txt, without which
      # the binary panics at start. Build from the module source with that file written instead.
      say "go install did not give a working binary; building from the module source…"
      src=$(go mod download -json "$FERRETDB_MODULE@$FERRETDB_VERSION" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
      [ -d "$src" ] || fail "could not download $FERRETDB_MODULE@$FERRETDB_VERSION with the Go module proxy"
      work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
      cp -r "$src/." "$work"; chmod -R u+w "$work"
      echo "$FERRETDB_VERSION" > "$work/build/version/version.txt"
      mkdir -p "$gobin"
      (cd "$work" && go build -trimpath -o "$gobin/ferretdb" ./cmd/ferretdb) >&2
      ferretdb_ok "$gobin/ferretdb" || fail "the FerretDB build at $gobin/ferretdb does not run; \`$gobin/ferretdb --version\` printed: $(ferretdb_version "$gobin/ferretdb" || true)"
    fi
    say "FerretDB $FERRETDB_VERSION installed at $gobin/ferretdb"
  fi
fi

# --- Pebble (Let's Encrypt's test CA: the custom-domain HTTPS test asks it for certificates) --------
PEBBLE_MODULE=github.com/letsencrypt/pebble/v2
PEBBLE_VERSION=v2.10.3
command -v go >/dev/null || fail "Go is required to build Pebble $PEBBLE_VERSION (https://go.dev/dl)"
gobin=$(go env GOBIN); [ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"
# The binary says no version of its own (`dev`); the module version Go built it from does.
pebble_ok() {
  [ -x "$gobin/pebble" ] && [ -d "$(go env GOMODCACHE)/$PEBBLE_MODULE@$PEBBLE_VERSION/test/certs" ] || return 1
  local info; info=$(go version -m "$gobin/pebble" 2>/dev/null) || return 1
  [[ "$info" == *"$PEBBLE_MODULE"*"$PEBBLE_VERSION"* ]]
}
if ! pebble_ok; then
  say "building Pebble $PEBBLE_VERSION with Go…"
  # Its test certificates (the ACME server's own, and the root trusted for it) stay in the module cache.
  go install "$PEBBLE_MODULE/cmd/pebble@$PEBBLE_VERSION" >&2
  pebble_ok || fail "Pebble did not build at $gobin/pebble"
  say "Pebble $PEBBLE_VERSION installed at $gobin/pebble"
fi

# --- openapi-python-client (the contract test generates a Python client with it; never a runtime
# dependency): a venv of its own under .cache/, so the test needs no network ---
OPENAPI_PYTHON_CLIENT_VERSION=0.29.1
client_venv=.cache/openapi-python-client
client_ok() { [ -x "$client_venv/bin/openapi-python-client" ] && [ "$("$client_venv/bin/openapi-python-client" --version 2>/dev/null)" = "openapi-python-client version: $OPENAPI_PYTHON_CLIENT_VERSION" ]; }
if ! client_ok; then
  command -v python3 >/dev/null || fail "python3 is required for the generated-client test (apt-get install python3 python3-venv)"
  say "installing openapi-python-client $OPENAPI_PYTHON_CLIENT_VERSION into $client_venv…"
  rm -rf "$client_venv"
  pip_log=$(mktemp)
  { python3 -m venv "$client_venv" && "$client_venv/bin/pip" install --quiet --disable-pip-version-check \
      "openapi-python-client==$OPENAPI_PYTHON_CLIENT_VERSION"; } >"$pip_log" 2>&1 \
    || { cat "$pip_log" >&2; fail "could not install openapi-python-client (output above; python3-venv missing?)"; }
  rm -f "$pip_log"
  client_ok || fail "$client_venv/bin/openapi-python-client does not run"
fi
