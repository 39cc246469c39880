#!/usr/bin/env bash
# Opens a demo station's screen once the service answers, full screen, and opens it again if the
# browser closes. A browser started before the service (a station's boot) would show its own error
# page and stay there; the dashboard itself reconnects by itself after the service restarts.
#
#   scripts/kiosk-browser.sh [URL]     default: http://localhost:${PORT:-3000}/?kiosk=1&table=demo
#   BROWSER=chromium (default: chromium, else chromium-browser, else google-chrome)
#   KIOSK_ONCE=1: open it once and return when the browser closes (no reopening)
set -u
url="${1:-http://localhost:${PORT:-3000}/?kiosk=1&table=demo}"
if [[ "$url" =~ ^(https?://[^/?#]+) ]]; then origin="${BASH_REMATCH[1]}"; else
  echo "kiosk-browser: not an http(s) address: $url" >&2
  exit 2
fi
browser="${BROWSER:-}"
if [ -z "$browser" ]; then
  for candidate in chromium chromium-browser google-chrome; do
    if command -v "$candidate" > /dev/null 2>&1; then browser="$candidate"; break; fi
  done
fi
if [ -z "$browser" ]; then
  echo "kiosk-browser: no browser found: install chromium, or set BROWSER" >&2
  exit 2
fi

wait_for_service() {
  local said=0
  # quiet: the service not answering yet is said once below, not every 2 s
  until curl -fs -o /dev/null --max-time 3 "$origin/api/health"; do
    if [ "$said" = 0 ]; then echo "kiosk-browser: waiting for the service at $origin ..." >&2; said=1; fi
    sleep 2
  done
}

while true; do
  wait_for_service
  echo "kiosk-browser: opening $url" >&2
  # a profile of its own: a browser already running under the usual one would take the address and
  # return at once, and this loop would open a window every 2 s
  opened_at=$(date +%s)
  # no pinch zoom and no swipe back on a touch screen: a visitor cannot leave the station's page or zoom it out of shape
  "$browser" --kiosk --noerrdialogs --disable-session-crashed-bubble --disable-infobars --no-first-run --incognito \
    --disable-pinch --overscroll-history-navigation=0 \
    --user-data-dir="${XDG_RUNTIME_DIR:-/tmp}/flightdeck-kiosk-browser" "$url"
  [ "${KIOSK_ONCE:-0}" = 1 ] && exit 0
  # a browser that closes at once again and again is not reopened in a tight loop
  if [ $(( $(date +%s) - opened_at )) -lt 10 ]; then sleep 30; else sleep 2; fi
done
