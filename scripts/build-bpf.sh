#!/usr/bin/env bash
# Builds the lab's TCP congestion controls that the kernel runs as BPF programs (testbed/congestion/
# bpf: Vegas, LIA) and their loader, into testbed/congestion/bpf/build/. Called by setup.sh when a
# source is newer than the build; ~5 s. vmlinux.h comes from the running kernel's BTF, so the
# programs match this kernel's structures (CO-RE relocates the few fields read through pointers).
# Without BTF (/sys/kernel/btf/vmlinux) nothing is built and scenarios that ask for these
# congestion controls say why; the rest of the lab is unaffected.
set -euo pipefail
cd "$(dirname "$0")/../testbed/congestion/bpf"
mkdir -p build
if [ ! -r /sys/kernel/btf/vmlinux ]; then
  # Nothing to build against; bpf-loader.js says so to a scenario that asks for vegas or lia.
  echo "setup: this kernel has no BTF (/sys/kernel/btf/vmlinux), so the BPF congestion controls (vegas, lia) are not built" >&2
  exit 0
fi
bpftool=$(command -v bpftool || echo /usr/sbin/bpftool)
"$bpftool" btf dump file /sys/kernel/btf/vmlinux format c > build/vmlinux.h.tmp
mv build/vmlinux.h.tmp build/vmlinux.h
for src in *.bpf.c; do
  clang -O2 -g -Wall -target bpf -mcpu=v3 -Ibuild -c "$src" -o "build/${src%.c}.o"
done
cc -O2 -Wall -o build/load-congestion-control load-congestion-control.c -lbpf
touch build/.build-stamp
