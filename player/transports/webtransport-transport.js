'use strict';
// FDSP over WebTransport (HTTP/3): the reliable part on a QUIC stream, the unreliable DATA
// frames as QUIC datagrams, to the origin's QUIC server (origin/quic), which hands them to the
// same FDSP responder as the DataChannel. Everything FDSP is fdsp-transport.js's (the client
// core, BP, deadlines, accounting); this carrier opens the sessions its options ask for
// (webtransport-carriers.js: one session, or a split pair with the datagrams on a second,
// fixed-rate one) with webtransport-browser-session.js, and records per response which
// carrier and congestion controllers carried it.
const { FdspTransport } = require('./fdsp-transport');
const { openWebTransportSession } = require('./webtransport-browser-session');
const { planCarriers } = require('./webtransport-carriers');

class WebTransportTransport extends FdspTransport {
  /**
   * @param {object} o
   * @param {string} o.url                urls.webtransport, e.g. https://127.0.0.1:8444/fdsp
   * @param {string} o.certSha256Hex      the origin certificate's SHA-256 (GET /api/info)
   * @param {string} [o.carrier]          'single' (default) or 'split'
   * @param {string} [o.cc]               the reliable session's congestion controller (default cubic)
   * @param {number} [o.fixedMargin]      a fixed-rate session's rate = highest bandwidth x this (1.2)
   * @param {number|null} [o.highestBandwidthBps]  the content's highest representation (for fixed)
   * @param {number|null} [o.paceBps]    the datagrams' rate, asked of the origin with every
   *   request (pace-option.js); null: unpaced
   * @param {number|string} [o.bp]        Bitstream Prioritization (fdsp-transport.js)
   * @param {() => number} [o.bufferLevel]
   * @param {() => object} [o.stallState]  the player's stalls (fdsp-transport.js)
   * @param {(url: string) => string|null} [o.nextSegmentUrl]  substream overlapping (fdsp-transport.js)
   */
  constructor(o) {
    super({ name: 'webtransport', label: 'WebTransport (FDSP)', protocol: 'webtransport', bp: o.bp, mode: o.mode, bufferLevel: o.bufferLevel, stallState: o.stallState, paceBps: o.paceBps, nextSegmentUrl: o.nextSegmentUrl });
    if (!o.certSha256Hex) throw new Error(`${this.label}: the origin did not say its certificate's hash (GET /api/info certSha256Hex)`);
    this.url = o.url;
    this.certSha256Hex = o.certSha256Hex;
    this.carrierOptions = { carrier: o.carrier ?? 'single', cc: o.cc ?? 'cubic', fixedMargin: o.fixedMargin ?? 1.2 };
    this.highestBandwidthBps = o.highestBandwidthBps ?? null;
    // Made now so that a bad combination (a fixed rate out of the server's range) fails the
    // start of the playback, not its first request; each connection makes its own (a split's
    // pair token is used once).
    this.plan = this.newPlan();
  }

  newPlan() {
    return planCarriers({ baseUrl: this.url, options: this.carrierOptions, highestBandwidthBps: this.highestBandwidthBps });
  }

  accountingExtras() {
    return { carrier: this.plan.carrier, reliableCc: this.plan.reliableCc, unreliableCc: this.plan.unreliableCc };
  }

  stats() {
    const p = this.plan;
    return { ...super.stats(), carrier: p.carrier, reliableCc: p.reliableCc, unreliableCc: p.unreliableCc, fixedRateKbps: p.fixedRateKbps };
  }

  /** Opens the plan's sessions in order (a split's datagram session names the first one's token). */
  async openSession({ onMessage, onClose }) {
    const plan = this.newPlan();
    const opened = [];
    let over = false;
    const closeAll = () => {
      over = true;
      for (const s of opened) s.close();
    };
    const sessionClosed = (role) => (why) => {
      if (over) return;
      closeAll();
      onClose(plan.sessions.length > 1 ? `the ${role} session: ${why}` : why);
    };
    try {
      for (const s of plan.sessions) {
        opened.push(await openWebTransportSession(s.url, {
          label: this.label, certSha256Hex: this.certSha256Hex, stream: s.role !== 'unreliable', onMessage, onClose: sessionClosed(s.role),
        }));
        if (over) throw new Error(`${this.label}: a session closed while the others were opening`);
      }
    } catch (err) {
      closeAll();
      throw err;
    }
    this.plan = plan;
    const [reliable] = opened;
    return { send: (frame) => reliable.send(frame), close: closeAll };
  }
}

module.exports = { WebTransportTransport };
