'use strict';
// The origin as its own process inside the emulated link's server namespace (a process
// cannot open sockets in another namespace; `ip netns exec` starts it there). It serves the
// already-built content only: building belongs before the run, not inside a playback. It is
// ready when it prints its JSON ready line, which also gives its URLs (its listeners keep their
// default ports: the namespace is its own, and people open the lab's page at them).
const path = require('node:path');
const { spawn } = require('node:child_process');
const { inNamespace } = require('../netem/namespace-link');
const { mptcpizeArgv } = require('../netem/mptcp');
const { OriginProcess } = require('../origin-process');
const { dieWithParentArgv } = require('../../shared/die-with-parent');

const REPO = path.resolve(__dirname, '..', '..');
const STDERR_TAIL_CHARS = 1000;

/**
 * @param {object} o
 * @param {string} o.netns, o.host, o.contentDir, o.dataDir, o.logFile
 * @param {string} [o.webrtcStack]   the origin's WebRTC stack for DataChannel sessions (its --webrtc-stack)
 * @param {number} [o.readyTimeoutMs]  default 30 s
 * @param {object} [o.env]  more environment for the origin (e.g. LAB_SCTP: stacks/sctp-settings.js)
 * @returns {Promise<{pid: number, pageBase: string, urls: object, info: object, exited: Promise<{code: number|null, signal: string|null}>,
 *   stderrTail: () => string, close: () => Promise<void>}>}
 *   pid: the origin's own process (the ready line's); pageBase: its HTTP/1.1 URL, where the
 *   page is loaded; urls: every listener's URL from the ready line (http11, http10, h2, fdsp);
 *   info: the whole ready line (urls, spkiSha256, certSha256Hex: what Chromium's flags need);
 *   exited: resolves when it has ended, whoever ended it (a playback uses it to fail at once
 *   when its origin dies); stderrTail: the last of what it wrote to stderr (why it died, if it said)
 */
async function startOriginInNamespace(o) {
  const command = [process.execPath, path.join(REPO, 'origin', 'cli.js'),
    '--host', o.host, '--preset', 'none', '--content-dir', o.contentDir, '--data-dir', o.dataDir, '--log', o.logFile,
    ...(o.linkStateFile ? ['--link-state', o.linkStateFile] : []),
    ...(o.webrtcStack ? ['--webrtc-stack', o.webrtcStack] : [])];
  // o.mptcp: the origin's TCP listeners accept Multipath TCP (mptcpize; QUIC is UDP and unchanged).
  // It dies with this process, however this one ends (ip, setpriv and mptcpize all exec).
  const argv = dieWithParentArgv(inNamespace(o.netns, o.mptcp ? mptcpizeArgv(command) : command));
  const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], ...(o.env ? { env: { ...process.env, ...o.env } } : {}) });
  const origin = new OriginProcess(child, o.readyTimeoutMs || 30000);
  try {
    await origin.ready;
  } catch (e) {
    origin.killNow();
    throw e;
  }
  return {
    pid: origin.pid,
    pageBase: origin.urls.http11,
    urls: origin.urls,
    info: origin.info,
    exited: origin.exited,
    stderrTail: () => origin.stderr.trim().slice(-STDERR_TAIL_CHARS),
    async close() {
      // SIGINT: the origin flushes its request log and closes its listeners; SIGKILL after 5 s.
      await origin.close(5000);
    },
  };
}

module.exports = { startOriginInNamespace };
