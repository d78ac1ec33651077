'use strict';
// One playback through the link emulator, from its link's creation to its teardown: a fresh
// emulated link, a fresh origin process in the server namespace, a fresh Chromium in the client
// namespace (run-playback.js; a throughput run's page instead fetches the origin's byte source,
// testbed/throughput/run-throughput.js). The page loads over a clean link; the network profile,
// its outages, the switch schedule, the counter sampling and the scenario's competing flows
// (testbed/competing/) start with the playback. An origin or Chromium that dies fails the
// playback at once, and everything it started is ended before it returns or throws.
const { profileToLinkSettings, mergeProfile } = require('../scenario/network-profile');
const { createEmulatedLink } = require('../netem/namespace-link');
const { applyCongestionControls } = require('../congestion/apply-congestion-controls');
const { readEndpointDrops, diffDrops } = require('../netem/endpoint-drops');
const { runPlayback } = require('../run-playback');
const { runThroughput } = require('../throughput/run-throughput');
const { prepareCompetingFlows } = require('../competing/competing-flows');
const { setInitialWindow } = require('../netem/initial-window');
const { describeExit } = require('../chromium');
const { startOriginInNamespace } = require('./origin-in-namespace');
const { diffCounters, sumCounters, sampleWireBytes } = require('./link-counters');
const { labNowMs } = require('./lab-clock');
const { outageIntervals, startSwitches } = require('./network-switches');
const { enableMptcp } = require('../netem/mptcp');
const { watchTcpSockets } = require('./tcp-sockets-watch');
const { startPacketCapture } = require('../netem/packet-capture');

/** Resolves with the error that fails the playback once the origin process has ended. */
function originDeath(origin) {
  // Without it the player would retry for the whole timeout, or finish from its buffer and
  // look like a result.
  return origin.exited.then((e) => {
    const said = origin.stderrTail();
    return new Error(`the origin exited (${describeExit(e)}) during the playback${said ? `; its last stderr: ${said.slice(-500)}` : ''}`);
  });
}

/**
 * @param {object} p  one playback of expand-matrix.js
 * @param {object} o
 * @param {object} o.scenario       normalized (its profiles, for switches; its congestion control)
 * @param {object} o.playerConfig   the page's run configuration
 * @param {string} o.logFile        where the origin appends its request log
 * @param {number} o.linkIndex      namespace-link.js's index (names and addresses of the link)
 * @param {string} o.contentDir, o.dataDir
 * @param {{file: string, snapBytes: number}} [o.capture]  capture the client's packets into
 *   this pcap file, page load included (packet-capture.js)
 * @param {AbortSignal} [o.signal]
 * @param {(pids: {originPid: number, serverNs: string, chromiumPid: number, clientNs: string}) => void} [o.onPlaying]
 * @returns {Promise<{qoe, throughput, competingFlows, pageErrors, console, counters, endpointDrops, countersPageLoad, switchLog, pageToLinkMs, linkStartLabMs, pageTimeOrigin, wireSeries}>}
 *   counters: the link's, of the playback alone; countersPageLoad: the page load's;
 *   pageToLinkMs: the page's time 0 minus the link schedule's; linkStartLabMs, pageTimeOrigin: the
 *   link schedule's and the page's time 0 on lab-clock.js's clock; wireSeries: [page ms, bytes down];
 *   qoe: the player's (null for a throughput run), throughput: the throughput run's page result
 *   (else null); competingFlows: what each of the scenario's flows did (competing-flows.js's
 *   stop()), each with the emulator's counters of its address (null without flows);
 *   tcp: the origin's TCP connections during the playback (tcp-sockets-watch.js); pathCounters:
 *   each path's counters of the playback alone (profiles with extraPaths; else null);
 *   capture: with o.capture, packet-capture.js's stop() and linkStartEpochSeconds, the link
 *   schedule's time 0 on the capture's wall clock (else null)
 */
async function runEmulatedPlayback(p, { scenario, playerConfig, logFile, linkIndex, contentDir, dataDir, capture = null, signal = null, onPlaying = () => {} }) {
  const settings = profileToLinkSettings(p.profile, { repetition: p.repetition });
  // A profile with extra paths: one link with that many paths, and Multipath TCP over them.
  const extraPaths = settings.extraPaths || [];
  const mptcp = extraPaths.length > 0;
  const settingsFor = (network) => profileToLinkSettings(mergeProfile(scenario.profiles[network], p.abr.link), { repetition: p.repetition });
  let link = null;
  let origin = null;
  let wire = null;
  let switches = null;
  let flows = null;
  let sockets = null;
  let congestion = null;
  let capturing = null;
  try {
    // The page and its scripts (dash.js alone is 800 KB) load over a clean link: at paper 003's
    // 100 kbit/s they would take a minute and are not part of the experiment.
    link = await createEmulatedLink({ index: linkIndex, toClient: {}, toServer: {}, extraPaths: extraPaths.map(() => ({})) });
    // The sender's congestion control: the profile's or else the scenario's, and the competing
    // flows' (their routes'); BPF ones registered for this playback.
    congestion = await applyCongestionControls(link, {
      namespaceDefault: p.profile.congestionControl || scenario.congestionControl,
      others: (scenario.competingFlows || []).map((f) => f.cc),
    });
    if (mptcp) enableMptcp(link);
    if (scenario.initialWindow !== undefined) setInitialWindow(link, scenario.initialWindow);
    if (capture) capturing = await startPacketCapture({ netns: link.clientNs, file: capture.file, snapBytes: capture.snapBytes });
    origin = await startOriginInNamespace({ netns: link.serverNs, host: link.serverIp, contentDir, dataDir, logFile, mptcp });
    // Receivers listening before the page loads; the senders start with the playback.
    if (scenario.competingFlows) flows = await prepareCompetingFlows({ link, flows: scenario.competingFlows, initialWindow: scenario.initialWindow });
    // All paths together are the playback's link (packet loss, overhead, wire bytes).
    const linkCounters = mptcp ? async () => sumCounters(await Promise.all(link.paths.map((x) => x.counters()))) : () => link.counters();
    let before = null;
    let pathsBefore = null;
    let dropsBefore = null;
    // lab-clock.js: the page's times, the wire series, the competing flows and the switches are lined up on it
    let linkClockLabMs = null;
    let linkStartEpochMs = null; // the same moment on the wall clock, which stamps a capture
    const drive = p.kind === 'throughput' ? runThroughput : runPlayback;
    const result = await drive({
      pageBase: origin.pageBase,
      originInfo: origin.info,
      netns: link.clientNs,
      mptcp,
      config: playerConfig,
      transport: { name: p.transportName, options: p.transportOptions || {} },
      throughput: scenario.throughput,
      timeoutMs: p.timeoutSeconds * 1000,
      signal,
      failWhen: originDeath(origin),
      onPlaying: ({ chromiumPid }) => onPlaying({ originPid: origin.pid, serverNs: link.serverNs, chromiumPid, clientNs: link.clientNs }),
      // The page has loaded and holds: the profile and its schedules start now.
      beforeStart: async () => {
        // On several paths the link's counters are the paths' summed from one read of each, so
        // that the whole and its parts add up exactly (two reads let a packet in between).
        pathsBefore = mptcp ? await Promise.all(link.paths.map((x) => x.counters())) : null;
        before = mptcp ? sumCounters(pathsBefore) : await link.counters();
        dropsBefore = readEndpointDrops(link);
        // The profile's own outages (path 1's on a multipath profile) and the switches' outages.
        const downIntervals = (d) => [...(settings[d].downIntervals || []), ...outageIntervals(p.switches)];
        await link.configure('toClient', { ...settings.toClient, downIntervals: downIntervals('toClient'), timeOriginMs: 'now' });
        await link.configure('toServer', { ...settings.toServer, downIntervals: downIntervals('toServer'), timeOriginMs: 'now' });
        for (const [i, extra] of extraPaths.entries()) {
          await link.paths[i + 1].configure('toClient', { ...extra.toClient, timeOriginMs: 'now' });
          await link.paths[i + 1].configure('toServer', { ...extra.toServer, timeOriginMs: 'now' });
        }
        linkClockLabMs = labNowMs();
        linkStartEpochMs = Date.now();
        // The origin's TCP connections (and MPTCP subflows) as the kernel counts them.
        sockets = watchTcpSockets(link.serverNs, { multipath: mptcp });
        if (flows) flows.start(linkClockLabMs);
        wire = sampleWireBytes({ counters: linkCounters }, before);
        switches = startSwitches({ link, switches: p.switches, settingsFor, startLabMs: linkClockLabMs });
      },
    });
    wire.stop();
    const tcp = sockets.stop(link.paths);
    const flowResults = flows ? await flows.stop() : null;
    if (link.broken) throw new Error(`the emulated link broke during the playback: ${link.broken}`);
    const pathsAfter = mptcp ? await Promise.all(link.paths.map((x) => x.counters())) : null;
    const pathCounters = mptcp ? pathsAfter.map((c, i) => ({ path: i + 1, ...diffCounters(c, pathsBefore[i]) })) : null;
    const counters = diffCounters(mptcp ? sumCounters(pathsAfter) : await link.counters(), before);
    const endpointDrops = diffDrops(readEndpointDrops(link), dropsBefore);
    const captured = capturing ? { ...(await capturing.stop()), linkStartEpochSeconds: linkStartEpochMs / 1000 } : null;
    return {
      qoe: result.qoe || null,
      throughput: result.throughput || null,
      competingFlows: flowResults && flowResults.map((f) => ({ ...f, emulator: (counters.byAddress && counters.byAddress[f.address]) || null })),
      linkStartLabMs: linkClockLabMs,
      pageTimeOrigin: result.pageTimeOrigin,
      pageErrors: result.pageErrors,
      console: result.console,
      counters,
      endpointDrops,
      countersPageLoad: before,
      switchLog: switches.log,
      pageToLinkMs: result.pageTimeOrigin - linkClockLabMs,
      wireSeries: wire.finish(counters.toClient.bytesOut, result.pageTimeOrigin),
      tcp,
      pathCounters,
      capture: captured,
    };
  } finally {
    if (wire) wire.stop();
    if (sockets) sockets.stop();
    if (switches) switches.cancel();
    if (flows) flows.kill();
    if (capturing) await capturing.stop().catch(() => {});
    if (origin) await origin.close().catch(() => {});
    if (link) await link.close().catch(() => {});
    if (congestion) await congestion.release();
  }
}

module.exports = { runEmulatedPlayback };
