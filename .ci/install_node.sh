#!/usr/bin/env bash
# Install Node.js from Debian's packages when it is missing: the JavaScript target's tests run in
# Node (tests/test_js_node.py, tests/test_js_conformance.py, tests/test_hostile_text.py). Then
# TypeScript, for the check of the generated index.d.ts (tests/test_js_types.py), into .ci/node/
# (ignored by git); if npm or the registry fails, only that one test skips.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
if ! command -v node >/dev/null 2>&1; then
  apt-get update -qq
  apt-get install -y -qq nodejs >/dev/null
fi
if ! command -v npm >/dev/null 2>&1; then
  apt-get update -qq && apt-get install -y -qq npm >/dev/null || echo "npm could not be installed"
fi
if [ ! -x .ci/node/node_modules/.bin/tsc ] && command -v npm >/dev/null 2>&1; then
  npm install --silent --no-audit --no-fund --prefix .ci/node typescript@5 || echo "typescript could not be installed"
fi
