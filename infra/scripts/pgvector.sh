#!/usr/bin/env bash
# OPTIONAL: builds pgvector from source and installs it into the Postgres server of DATABASE_URL, so
# the integrations service's knowledge search uses pgvector (docs/tools.md, "Knowledge bases").
# Knowledge search works without it (exact cosine over double precision[]); npm start and npm test
# never run this. Run it on the machine the server runs on, as a user who may write the server's
# extension directory (root, or with sudo):
#
#   bash infra/scripts/pgvector.sh
#
# Idempotent: does nothing when pg_available_extensions already lists vector. The source comes
# through the Go module proxy (`go mod download`, pinned below; the proxy checks its sum); the build
# needs make, a C compiler and the server's headers and pg_config (Debian:
# apt-get install -y build-essential postgresql-server-dev-<major>). The schemas migrated before the
# install are converted to pgvector at the next start of the integrations service (upgradeToPgvector,
# services/integrations/src/migrations/pgvectorUpgrade.ts: it creates the extension, which needs a
# superuser, else it logs a warning and keeps the exact search; a column marked "exact store forced"
# stays exact); new schemas (and new databases) get pgvector when they are migrated.
set -euo pipefail

PGVECTOR_MODULE=github.com/pgvector/pgvector
PGVECTOR_VERSION=v0.8.0

url=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
# pg_available_extensions is the same in every database of a server: ask the `postgres` database, which
# exists before the service's database is created.
if [[ $url =~ ^(postgres(ql)?://[^/?]*)(/[^?]*)?(\?.*)?$ ]]; then url="${BASH_REMATCH[1]}/postgres${BASH_REMATCH[4]}"; fi

say() { printf 'pgvector: %s\n' "$*"; }
die() { printf 'pgvector: %s\n' "$*" >&2; exit 1; }
ask() { psql "$url" -X -A -t -v ON_ERROR_STOP=1 -c "$1"; }

command -v psql >/dev/null || die 'psql is missing (Debian: apt-get install -y postgresql-client)'
available=$(ask "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'") ||
  die "cannot reach Postgres at $url (set DATABASE_URL)"
if [[ -n $available ]]; then
  say "already available on the server (version $available); nothing to do"
  exit 0
fi

major=$(ask 'SHOW server_version_num')
major=$((major / 10000))
# The server's own pg_config (Debian keeps one per major version), else the one on PATH if it matches.
pg_config=/usr/lib/postgresql/$major/bin/pg_config
if [[ ! -x $pg_config ]]; then
  pg_config=$(command -v pg_config || true)
  [[ -n $pg_config ]] || die "no pg_config for Postgres $major (Debian: apt-get install -y postgresql-server-dev-$major)"
fi
[[ $("$pg_config" --version) =~ ^PostgreSQL\ $major[.\ ] ]] ||
  die "$pg_config is $("$pg_config" --version), the server is Postgres $major (Debian: apt-get install -y postgresql-server-dev-$major)"
[[ -f $("$pg_config" --pgxs) ]] ||
  die "the server headers are missing (Debian: apt-get install -y postgresql-server-dev-$major)"
command -v go >/dev/null || die 'go is missing (the source comes through the Go module proxy)'
command -v make >/dev/null || die 'make is missing (Debian: apt-get install -y build-essential)'

say "downloading $PGVECTOR_MODULE@$PGVECTOR_VERSION through the Go module proxy"
gomod=$(mktemp -d)
build=$(mktemp -d)
trap 'rm -rf "$gomod" "$build"' EXIT
# In an empty directory (outside any module) and without the caller's GOFLAGS.
src=$(cd "$gomod" && GOFLAGS= go mod download -json "$PGVECTOR_MODULE@$PGVECTOR_VERSION" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')
[[ -n $src && -f $src/vector.control ]] || die "go mod download gave no source directory for $PGVECTOR_MODULE@$PGVECTOR_VERSION"

# The module cache is read-only: build in a copy.
cp -R "$src/." "$build/"
chmod -R u+w "$build"
say "building for Postgres $major with $pg_config"
make -C "$build" -s PG_CONFIG="$pg_config" >/dev/null
say "installing into $("$pg_config" --pkglibdir) and $("$pg_config" --sharedir)/extension"
make -C "$build" -s PG_CONFIG="$pg_config" install >/dev/null ||
  die 'make install failed: run as a user who may write those directories (root, or with sudo)'

available=$(ask "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'")
[[ -n $available ]] || die 'installed, but the server does not list vector: is DATABASE_URL a server on this machine?'
say "version $available available; the integrations service converts existing schemas to pgvector at its next start (restart it), and new schemas get it when they are migrated"
