#!/usr/bin/env bash
# Brings a fresh machine (Debian bookworm, Node 20) to the point where every npm script works:
# system packages, node_modules, and the player bundle. Cheap when there is nothing to do, so
# `npm run origin` and `npm test` call it every time.
#   --quiet   say nothing unless something is installed or built
set -euo pipefail
cd "$(dirname "$0")/.."

quiet=0
[ "${1:-}" = "--quiet" ] && quiet=1
say() { [ "$quiet" = 1 ] || echo "setup: $*"; }
act() { echo "setup: $*"; }

# command -> Debian package providing it
declare -A NEED=(
  [ffmpeg]=ffmpeg
  [ffprobe]=ffmpeg
  [chromium]=chromium
  [openssl]=openssl
  [socat]=socat
  [ip]=iproute2
  # Multipath TCP for programs that open plain TCP sockets (the multipath link, paper 004).
  [mptcpize]=mptcpize
  # The parent-death signal that ends a browser whose launcher crashed (shared/die-with-parent.js).
  [setpriv]=util-linux
  # Packet headers of a playback, `npm run qoe -- --capture` (testbed/netem/packet-capture.js).
  [tcpdump]=tcpdump
)
# Optional: what the BPF TCP congestion controls (vegas, lia; paper 004) are built with. Without
# them the lab works with the kernel's own congestion controls, and scenarios that ask for vegas
# or lia say why they cannot run.
declare -A OPTIONAL=(
  [clang]=clang
  [bpftool]=bpftool
  [cc]=gcc
)
missing=()
optional_missing=()
for cmd in "${!NEED[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${NEED[$cmd]}")
done
for cmd in "${!OPTIONAL[@]}"; do
  # /usr/sbin (bpftool) is not on a non-root user's PATH.
  command -v "$cmd" >/dev/null 2>&1 || [ -x "/usr/sbin/$cmd" ] || optional_missing+=("${OPTIONAL[$cmd]}")
done
# Headers without a command: libbpf's, for the BPF programs and their loader.
[ -f /usr/include/bpf/libbpf.h ] || optional_missing+=(libbpf-dev)
if [ "${#missing[@]}" -gt 0 ] || { [ "${#optional_missing[@]}" -gt 0 ] && [ "$(id -u)" = 0 ]; }; then
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sed '/^$/d' | sort -u)
  if [ "$(id -u)" != 0 ]; then
    echo "setup: missing system packages: ${missing[*]}" >&2
    echo "setup: install them as root: sudo apt-get update && sudo apt-get install -y ${missing[*]} ${optional_missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  if [ "${#missing[@]}" -gt 0 ]; then
    act "installing system packages: ${missing[*]} (apt-get)"
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  if [ "${#optional_missing[@]}" -gt 0 ]; then
    act "installing system packages for the BPF congestion controls: ${optional_missing[*]} (apt-get)"
    apt-get install -y -qq --no-install-recommends "${optional_missing[@]}" >/dev/null \
      || echo "setup: could not install ${optional_missing[*]}: the BPF congestion controls (vegas, lia) will not be built" >&2
  fi
elif [ "${#optional_missing[@]}" -gt 0 ]; then
  say "the BPF congestion controls (vegas, lia) need ${optional_missing[*]}; as root: apt-get install -y ${optional_missing[*]}"
fi

node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ]; then
  echo "setup: Node.js 20 or newer is needed (found $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi

# node_modules: reinstall when the lock file changed since the last install. `npm install`
# rather than `npm ci`: npm 11 here writes lock files without other platforms' optional
# packages (e.g. @unrs/resolver-binding-darwin-*), which `npm ci` then rejects as out of sync;
# `npm install` installs exactly the locked versions all the same.
lock_hash=$(sha256sum package.json package-lock.json | sha256sum | cut -d' ' -f1)
stamp=node_modules/.lab-setup-lock-hash
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_hash" ]; then
  act "installing node modules (npm install from package-lock.json)"
  npm install --no-audit --no-fund --loglevel=error >/dev/null
  lock_hash=$(sha256sum package.json package-lock.json | sha256sum | cut -d' ' -f1)
  echo "$lock_hash" >"$stamp"
fi

# The player bundle: rebuild when any browser-side source is newer than the last build.
bundle_stamp=dist/player/.build-stamp
if [ ! -f "$bundle_stamp" ] || [ -n "$(find player shared webpack.config.js package-lock.json -newer "$bundle_stamp" -print -quit 2>/dev/null)" ]; then
  act "building the player bundle (webpack)"
  npx --no-install webpack --mode production >/tmp/dash-transport-lab-webpack.log 2>&1 || {
    cat /tmp/dash-transport-lab-webpack.log >&2
    echo "setup: webpack build failed" >&2
    exit 1
  }
  touch "$bundle_stamp"
fi
# The QUIC server (HTTP/3, WebTransport): Rust, since Node has no QUIC. Rebuilt when its sources,
# manifest or lock file are newer than the binary; ~1-2 min and ~0.5 GB of build files once, on
# 2 cores. Without cargo the origin still serves every other listener and says why h3 is absent.
quic_bin=origin/quic/target/release/quic-origin
if [ ! -x "$quic_bin" ] || [ -n "$(find origin/quic/src origin/quic/Cargo.toml origin/quic/Cargo.lock -newer "$quic_bin" -print -quit 2>/dev/null)" ]; then
  if ! command -v cargo >/dev/null 2>&1; then
    echo "setup: Rust's cargo is not installed, so the QUIC server (HTTP/3, WebTransport) is not built;" >&2
    echo "setup: install Rust (https://rustup.rs, or: apt-get install cargo) and run npm run setup again" >&2
  else
    act "building the QUIC server (cargo build --release --locked in origin/quic; ~1-2 min once)"
    (cd origin/quic && cargo build --release --locked --quiet) >/tmp/dash-transport-lab-cargo.log 2>&1 || {
      tail -40 /tmp/dash-transport-lab-cargo.log >&2
      echo "setup: building the QUIC server failed (full log: /tmp/dash-transport-lab-cargo.log)" >&2
      exit 1
    }
    touch "$quic_bin"
  fi
fi
# The BPF congestion controls (testbed/congestion/bpf): rebuilt when a source is newer. A failed
# or impossible build does not stop the lab: scenarios that ask for vegas or lia then say why
# (testbed/congestion/bpf-loader.js reads build/build-failed.log); it is retried when a source
# changes (or after rm -rf testbed/congestion/bpf/build).
bpf_dir=testbed/congestion/bpf/build
bpf_stamp=$bpf_dir/.build-stamp
if [ ! -f "$bpf_stamp" ] || [ -n "$(find testbed/congestion/bpf -maxdepth 1 -newer "$bpf_stamp" -type f -print -quit 2>/dev/null)" ]; then
  if ! mkdir -p "$bpf_dir" 2>/dev/null || [ ! -w "$bpf_dir" ]; then
    say "cannot write $bpf_dir (built by another user?): the BPF congestion controls are not rebuilt"
  elif command -v clang >/dev/null 2>&1 && { command -v bpftool >/dev/null 2>&1 || [ -x /usr/sbin/bpftool ]; } && command -v cc >/dev/null 2>&1 && [ -f /usr/include/bpf/libbpf.h ]; then
    act "building the BPF congestion controls (clang; a few seconds)"
    rm -f "$bpf_dir/build-failed.log"
    bpf_log=$(mktemp)
    if ! bash scripts/build-bpf.sh >"$bpf_log" 2>&1; then
      tail -20 "$bpf_log" >&2
      cp "$bpf_log" "$bpf_dir/build-failed.log" || true
      echo "setup: building the BPF congestion controls failed; scenarios asking for vegas or lia will refuse (log: $bpf_dir/build-failed.log; retried when a source changes)" >&2
    fi
    rm -f "$bpf_log"
    touch "$bpf_stamp"
  fi
fi
say "ready"
