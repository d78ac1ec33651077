'use strict';
// What the quic bench runs inside Chromium's page (page.evaluate serializes these functions,
// so each is self-contained). Both fetch the same segments one after another and time them.

/** HTTP/1.1 or HTTP/3 fetch; every response's protocol from Resource Timing. */
async function fetchSegments({ base, urls }) {
  performance.clearResourceTimings();
  const t0 = performance.now();
  let bytes = 0;
  for (const u of urls) bytes += (await (await fetch(base + u, { cache: 'no-store' })).arrayBuffer()).byteLength;
  const seconds = (performance.now() - t0) / 1000;
  const protocols = [...new Set(performance.getEntriesByType('resource').filter((e) => e.name.startsWith(base)).map((e) => e.nextHopProtocol))];
  return { bytes, seconds, protocols };
}

/**
 * FDSP over WebTransport, as the origin speaks it: REQUEST on the session's stream as
 * [u32 len][frame]; HEAD, reliable DATA and END back on it; the rest as one DATA frame per
 * datagram. carrier 'split': a second session (?pairWith=) carries the datagrams at a fixed rate.
 * Requests go one after another (the next after the previous END and graceMs); datagrams are
 * counted to their request whenever they come, and only after the last request's END and a
 * final wait (tailMs) are the missing ones lost. The time is from the first REQUEST to the last
 * thing that arrived.
 */
async function fdspOverWebTransport({ url, certSha256Hex, urls, bp, carrier, rateKbps, graceMs, tailMs }) {
  const hash = new Uint8Array(certSha256Hex.match(/../g).map((h) => parseInt(h, 16)));
  const open = async (u) => {
    const wt = new WebTransport(u, { serverCertificateHashes: [{ algorithm: 'sha-256', value: hash }] });
    await wt.ready;
    return wt;
  };
  const token = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, '0')).join('');
  const main = await open(carrier === 'split' ? `${url}?cc=cubic&pairToken=${token}` : `${url}?cc=cubic`);
  const datagramSession = carrier === 'split' ? await open(`${url}?cc=fixed&rateKbps=${rateKbps}&pairWith=${token}`) : main;
  const stream = await main.createBidirectionalStream();
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  let pending = new Uint8Array(0);
  const readFrame = async () => {
    for (;;) {
      if (pending.length >= 4) {
        const n = new DataView(pending.buffer, pending.byteOffset).getUint32(0);
        if (pending.length >= 4 + n) {
          const f = pending.slice(4, 4 + n);
          pending = pending.slice(4 + n);
          return f;
        }
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the session closed');
      const next = new Uint8Array(pending.length + value.length);
      next.set(pending);
      next.set(value, pending.length);
      pending = next;
    }
  };
  const got = new Map(); // request id -> {bytes, count, lastAt}
  (async () => {
    const r = datagramSession.datagrams.readable.getReader();
    for (;;) {
      const { value, done } = await r.read().catch(() => ({ done: true }));
      if (done) return;
      const id = new DataView(value.buffer, value.byteOffset).getUint32(4);
      const g = got.get(id) || { bytes: 0, count: 0, lastAt: 0 };
      g.bytes += value.length - 12;
      g.count += 1;
      g.lastAt = performance.now();
      got.set(id, g);
    }
  })();
  const out = { bytes: 0, seconds: 0, reliableBytes: 0, datagramsExpected: 0, datagramsSent: 0, datagramsReceived: 0, maxDatagramSize: datagramSession.datagrams.maxDatagramSize };
  let id = 1;
  let firstAt = null;
  let lastAt = 0;
  for (const u of urls) {
    id += 1;
    const json = new TextEncoder().encode(JSON.stringify({ url: u, range: null, bp, deadlineMs: null }));
    const frame = new Uint8Array(12 + json.length);
    frame.set([0xfd, 1, 1, 0]);
    new DataView(frame.buffer).setUint32(4, id);
    frame.set(json, 12);
    const msg = new Uint8Array(4 + frame.length);
    new DataView(msg.buffer).setUint32(0, frame.length);
    msg.set(frame, 4);
    if (firstAt === null) firstAt = performance.now();
    await writer.write(msg);
    let head = null;
    let end = null;
    let endAt = 0;
    while (!end) {
      const f = await readFrame();
      if (new DataView(f.buffer, f.byteOffset).getUint32(4) !== id) continue;
      if (f[2] === 16) head = JSON.parse(new TextDecoder().decode(f.slice(12)));
      else if (f[2] === 17) out.reliableBytes += f.length - 12;
      else if (f[2] === 18) { end = JSON.parse(new TextDecoder().decode(f.slice(12))); endAt = performance.now(); }
      else if (f[2] === 19) throw new Error(`ERROR for ${u}: ${new TextDecoder().decode(f.slice(12))}`);
    }
    lastAt = Math.max(lastAt, endAt);
    out.bytes += head.reliableBytes;
    out.datagramsExpected += head.unreliableChunks;
    out.datagramsSent += end.unreliableSent;
    await new Promise((r) => setTimeout(r, graceMs));
  }
  await new Promise((r) => setTimeout(r, tailMs));
  for (const g of got.values()) {
    out.bytes += g.bytes;
    out.datagramsReceived += g.count;
    lastAt = Math.max(lastAt, g.lastAt);
  }
  out.seconds = (lastAt - firstAt) / 1000;
  main.close({ closeCode: 0, reason: 'bench done' });
  if (datagramSession !== main) datagramSession.close({ closeCode: 0, reason: 'bench done' });
  return out;
}

module.exports = { fetchSegments, fdspOverWebTransport };
