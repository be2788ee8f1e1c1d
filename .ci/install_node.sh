#!/usr/bin/env bash
# Install Node.js from Debian's packages when it is missing: the JavaScript target's tests run in
# Node (tests/test_js_node.py, tests/test_js_conformance.py, tests/test_hostile_text.py).
set -euo pipefail
if command -v node >/dev/null 2>&1; then exit 0; fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq nodejs >/dev/null
