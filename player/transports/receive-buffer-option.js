'use strict';
// The DataChannel's UDP receive buffer in Chromium (issue 16 item 2, "what the receiver takes").
// Chromium's network process opens a WebRTC UDP socket with a 64 KiB receive buffer (128 KiB of
// kernel truesize, `ss -uamp`'s rb131072); on plain loopback that socket overflowed in a session's
// first seconds, paced or not, with a receive window or not, and unreliable chunks were lost on a
// clean link (README). A page cannot size the socket, but WebRTC does when the peer connection
// carries video: its video channel asks the shared, bundled transport for a larger receive buffer
// (Chromium here: 1 MiB, rb2097152; the kernel caps it at net.core.rmem_max). So `video` (the
// default) adds a receive-only video
// transceiver that carries nothing (the origin accepts it in its answer and sends no media) before the offer,
// and the DataChannels read from that socket. `chromium` leaves the peer connection as it was,
// with Chromium's 64 KiB, to compare. Parsed here only: page URL (?receiveBuffer=), a scenario's
// transport entry, the page's form.
const { oneOf } = require('../option-values');

const RECEIVE_BUFFERS = ['video', 'chromium'];

module.exports = {
  title: 'UDP receive buffer',
  noun: 'a receive buffer',
  help: 'video (default): a receive-only video transceiver beside the channels, so WebRTC sizes the shared UDP socket for video (1 MiB in this Chromium, at most the kernel\'s net.core.rmem_max); chromium: the 64 KiB Chromium gives a DataChannel-only socket, which overflowed on loopback',
  default: 'video',
  parse: oneOf(RECEIVE_BUFFERS),
  format: (value) => String(value),
  RECEIVE_BUFFERS,
};
