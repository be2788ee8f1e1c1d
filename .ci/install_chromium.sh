#!/usr/bin/env bash
# Install Debian's Chromium for the browser test of the reference pages (tests/test_browser.py).
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && fc-list 2>/dev/null | grep -qi wqy; then exit 0; fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium fonts-wqy-zenhei >/dev/null
