#!/usr/bin/env bash
# `npm test`'s first step (the `pretest` script; `.ci/run` runs it through `npm test`): the system programs the test
# suite uses, from Debian's (and Ubuntu's) packages —
#   nats-server                        services in separate processes over a real NATS (distributed and e2e tests)
#   chromium                           the web pages' tests, driven by playwright-core at /usr/bin/chromium (or
#                                      CHROMIUM_PATH); no browser is ever downloaded
#   golang-go, golang-golang-x-mod-dev, golang-github-fxamacker-cbor-dev
#                                      an independent Go implementation checks the transparency log's files
#                                      (test/tlog/go-check.spec.ts)
# Missing ones are installed with apt-get when this can be done without a question (root, or sudo without a
# password); otherwise it stops at once and prints the command to run. It never asks for a password.
# The checks use bash built-ins only, so a PATH without the programs is judged exactly as it is.
set -euo pipefail

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
gocode=/usr/share/gocode/src

missing_packages() {
  local missing=()
  command -v nats-server >/dev/null 2>&1 || missing+=(nats-server)
  [ -n "${CHROMIUM_PATH:-}" ] || [ -x "$chromium" ] || missing+=(chromium)
  if ! command -v go >/dev/null 2>&1; then
    # Go's libraries are of no use without Go: all three, whatever is already there (apt-get keeps what is).
    missing+=(golang-go golang-golang-x-mod-dev golang-github-fxamacker-cbor-dev)
  else
    [ -d "$gocode/golang.org/x/mod" ] || missing+=(golang-golang-x-mod-dev)
    [ -d "$gocode/github.com/fxamacker/cbor" ] || missing+=(golang-github-fxamacker-cbor-dev)
  fi
  echo "${missing[*]}"
}

if [ -n "${CHROMIUM_PATH:-}" ] && [ ! -x "$CHROMIUM_PATH" ]; then
  echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file; unset it to use Debian's chromium (/usr/bin/chromium)." >&2
  exit 1
fi

read -r -a missing <<<"$(missing_packages)"
[ ${#missing[@]} -eq 0 ] && exit 0

# Who may install: root as it is, a user through sudo only when sudo asks nothing (-n fails instead of prompting).
as=none
if command -v apt-get >/dev/null 2>&1; then
  if [ "$EUID" -eq 0 ]; then
    as=root
  elif command -v sudo >/dev/null 2>&1 && sudo -n true </dev/null >/dev/null 2>&1; then
    as=sudo
  fi
fi

if [ "$as" = none ]; then
  prefix=""
  [ "$EUID" -eq 0 ] || prefix="sudo "
  {
    echo "The tests need system packages that are missing: ${missing[*]}."
    echo "Install them (Debian or Ubuntu), then run the tests again:"
    echo "  ${prefix}apt-get update && ${prefix}apt-get install -y ${missing[*]}"
    echo "(README.md, \"Set up\", says what each one is for.)"
  } >&2
  exit 1
fi

echo "Installing the system packages the tests need: ${missing[*]} (apt-get, as $as)" >&2
run() { if [ "$as" = sudo ]; then sudo -n "$@" </dev/null; else "$@" </dev/null; fi; }
run env DEBIAN_FRONTEND=noninteractive apt-get update -qq
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null

read -r -a still <<<"$(missing_packages)"
if [ ${#still[@]} -gt 0 ]; then
  echo "Still missing after apt-get: ${still[*]}." >&2
  exit 1
fi
