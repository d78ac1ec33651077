'use strict';
// Batch "paths": every generated hostile path (hostile-paths.js) goes to all three listeners,
// HTTP/1.1 and HTTP/1.0 as raw bytes on a fresh TCP connection, h2 as a raw :path on a shared
// connection. No response may carry a file from outside the content root; controls must come
// back byte for byte.
const { rawHttp1 } = require('../raw-http1');
const { RawH2Connection, sharedH2Connection } = require('../raw-h2-connection');
const { hostilePath } = require('../hostile-paths');
const { runPool } = require('../run-pool');
const { describe } = require('../batch-record');

async function run(ctx) {
  const { prng, urls, rec, tree } = ctx;
  const cases = Array.from({ length: ctx.count }, () => ({ ...hostilePath(prng, tree), head: prng.chance(0.1) }));
  const shared = sharedH2Connection(urls.h2Port);

  const check = (c, listener, status, body, bytes) => {
    const what = `${c.head ? 'HEAD' : 'GET'} ${describe(c.path)} on ${listener}`;
    rec.status(status, { channel: 'http', path: c.path, body, what });
    rec.scan(bytes, what);
    if (c.control) {
      const want = tree.files.get(c.control);
      const okBody = c.head || (Buffer.isBuffer(body) && body.equals(want));
      if (status !== 200 || !okBody) rec.fail(`control ${what} (the file ${c.control}) got ${status} with ${body ? body.length : 0} bytes, not 200 with its ${want.length} bytes`, { kind: `control ${listener}` });
    }
  };

  try {
    await runPool(cases.length, ctx.concurrency, async (i) => {
      const c = cases[i];
      const method = c.head ? 'HEAD' : 'GET';
      rec.case();
      for (const listener of ['http11', 'http10']) {
        const data = Buffer.concat([Buffer.from(`${method} `), Buffer.from(c.path, 'utf8'), Buffer.from(' HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')]);
        const r = await rawHttp1({ port: urls[`${listener}Port`], data, heads: [c.head] });
        const res = r.responses[0];
        check(c, listener, res ? res.status : null, res ? res.body : undefined, r.raw);
      }
      try {
        // A control gets a connection of its own: on the shared one, another case's connection
        // error would reset it too. (h2 carries no fragment in :path, so a control's is dropped.)
        const own = c.control ? await RawH2Connection.open({ port: urls.h2Port }) : null;
        const conn = own || (await shared.get());
        const p = c.control ? c.path.split('#')[0] : c.path;
        const r = await conn.request([[':method', method], [':scheme', 'https'], [':authority', '127.0.0.1'], [':path', Buffer.from(p, 'utf8')]]).done;
        if (own) await own.close();
        if (r.rstCode !== null) rec.see(`h2 rst ${r.rstCode}`);
        else if (r.status === null) rec.see(r.goaway ? `h2 goaway ${r.goaway.error}` : r.timedOut ? 'h2 no answer' : 'h2 closed');
        check(c, 'h2', r.status, r.status === null ? undefined : r.body, r.body);
      } catch (err) {
        rec.see(`h2 ${err.code || err.message}`);
      }
    }, ctx.shouldStop);
  } finally {
    await shared.close();
  }
  rec.scan(shared.dataBytes(), 'the shared h2 connections');
}

module.exports = {
  name: 'paths',
  title: 'hostile paths (HTTP/1.1, 1.0, h2)',
  targets: ['http11', 'http10', 'h2'],
  defaultCount: 600,
  run,
};
