'use strict';
// A playback's switch schedule on its emulated link (scenario "switchSchedules"): at each
// switch the link takes the next network's settings, optionally after an outage and with a new
// client address (a new IP: every connection breaks, as on a Wi-Fi to LTE handover). What
// happened is logged: when on the playback's clock (lab-clock.js, which does not step), and on
// the machine's monotonic clock, which the origin's request log also stamps, to line the
// switches up with its requests (switch-connections.js); the wall time only for a reader.

const { labNowMs } = require('./lab-clock');
const { machineMonotonicMs } = require('../../shared/machine-monotonic-ms');

/** A schedule's outages as the link's down intervals, in ms from the playback's start. */
function outageIntervals(switches) {
  return switches.filter((e) => e.outageSeconds > 0)
    .map((e) => ({ fromMs: e.atSeconds * 1000, toMs: (e.atSeconds + e.outageSeconds) * 1000 }));
}

/**
 * Starts the schedule's timers; call at the playback's start.
 * @param {object} o
 * @param {object} o.link  namespace-link.js's link
 * @param {Array<{atSeconds: number, network: string, newAddress?: boolean}>} o.switches
 * @param {(network: string) => {toClient: object, toServer: object}} o.settingsFor  link settings of a network
 * @param {number} o.startLabMs  the playback's start on lab-clock.js's clock (the schedule's time 0)
 * @returns {{log: object[], cancel: () => void}}  log: one entry per switch done
 *   ({atSeconds, at, mono, network, clientIp, error?}), filled in as they happen
 */
function startSwitches({ link, switches, settingsFor, startLabMs }) {
  const log = [];
  const timers = switches.map((e) => setTimeout(() => {
    const entry = { atSeconds: (labNowMs() - startLabMs) / 1000, at: new Date().toISOString(), mono: machineMonotonicMs(), network: e.network, clientIp: null };
    // A switch that fails is logged and the playback goes on: the record shows it.
    try {
      const next = settingsFor(e.network);
      if (e.newAddress) entry.clientIp = link.switchClientAddress();
      link.configure('toClient', next.toClient).catch((err) => { entry.error = err.message; });
      link.configure('toServer', next.toServer).catch((err) => { entry.error = err.message; });
    } catch (err) {
      entry.error = err.message;
    }
    log.push(entry);
  }, e.atSeconds * 1000));
  return { log, cancel: () => timers.forEach(clearTimeout) };
}

module.exports = { outageIntervals, startSwitches };
