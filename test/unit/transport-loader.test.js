'use strict';
// The dash.js loader adapter (player/dash/transport-loader.js) with a scripted transport: bytes
// handed over ahead of the whole reach dash.js as data-carrying progress events, and the
// response then gives dash.js only the rest (the whole again would be appended twice).
const { createTransportLoader } = require('../../player/dash/transport-loader');

function loadWith(script) {
  const seen = { progress: [], ended: 0, responses: [] };
  const transport = { load: (request, callbacks) => { script(callbacks); return { abort() {} }; } };
  const Loader = createTransportLoader({ transport: () => transport, onResponse: (info) => seen.responses.push(info) });
  const response = {};
  const request = { url: 'http://o/content/x/seg-1.m4s', headers: {}, responseType: 'arraybuffer', customData: { onprogress: (e) => seen.progress.push(e), onloadend: () => { seen.ended += 1; } } };
  Loader().load(request, response);
  return { seen, response };
}

test('fragments ahead: data progress events (no throughput sample), then only the rest', () => {
  const whole = new Uint8Array([1, 2, 3, 4, 5, 6]).buffer;
  const ahead = new Uint8Array([1, 2, 3, 4]).buffer;
  const rest = new Uint8Array([5, 6]).buffer;
  const { seen, response } = loadWith((cb) => {
    cb.onProgress({ data: ahead, loaded: 4, lengthComputable: false, noTrace: true });
    cb.onComplete({ url: 'u', status: 200, statusText: 'OK', headers: {}, data: whole, appendData: rest, accounting: { bytes: 6 } });
  });
  expect(seen.progress[0]).toEqual({ data: ahead, lengthComputable: false, noTrace: true });
  // Two sized events still follow, so dash.js records a throughput sample for the response.
  expect(seen.progress.slice(1)).toEqual([{ loaded: 6, total: 6, lengthComputable: true }, { loaded: 6, total: 6, lengthComputable: true }]);
  expect(response.data).toBe(rest);
  expect(seen.responses[0].data).toBe(whole); // the record hashes the whole segment
  expect(seen.ended).toBe(1);
});

test('no parts ahead: the whole response, as before', () => {
  const whole = new Uint8Array([9, 9]).buffer;
  const { seen, response } = loadWith((cb) => {
    cb.onProgress({ loaded: 1, total: 2, lengthComputable: true });
    cb.onComplete({ url: 'u', status: 200, statusText: 'OK', headers: {}, data: whole, accounting: { bytes: 2 } });
  });
  expect(response.data).toBe(whole);
  expect(seen.progress).toEqual([{ loaded: 1, total: 2, lengthComputable: true }, { loaded: 2, total: 2, lengthComputable: true }]);
});
