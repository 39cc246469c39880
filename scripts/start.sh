#!/usr/bin/env bash
# One command for a newcomer: install what is needed, build, and start Flight Deck
# on http://localhost:${PORT:-3000} (simulated camera and button box when none is configured).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system-deps.sh
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
exec npm start
