#!/usr/bin/env bash
# Debian packages the product and its tests use: camera capture, AVR toolchain and simulator,
# serial tools, ffmpeg, Chromium for the browser tests, unzip (the tests check the archives written) and curl
# (the demo station's browser launcher waits for the service with it). Skips what is already there.
set -euo pipefail
pkgs=(fswebcam gcc-avr avr-libc arduino-core-avr arduino-mk simavr libsimavr-dev socat ffmpeg chromium fonts-dejavu-core unzip curl)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
echo "Installing Debian packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
