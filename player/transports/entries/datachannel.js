'use strict';
// FDSP over a WebRTC DataChannel pair (paper 000): critical data reliable, the rest unreliable.
// Its signaling goes to the origin's HTTP/1.x listener at /fdsp (GET /api/info urls.fdsp). Its
// accounting (segment fields, rows, columns) is every FDSP carrier's: fdsp-entry-parts.js.
const { DataChannelTransport } = require('../datachannel-transport');
const bp = require('../bp-option');
const pace = require('../pace-option');
const receiveWindow = require('../window-option');
const associations = require('../associations-option');
const receiveBuffer = require('../receive-buffer-option');
const mode = require('../fdsp-mode-option');
const fdsp = require('../fdsp-entry-parts');

module.exports = {
  name: 'datachannel',
  label: 'DataChannel (FDSP: critical data reliable, the rest unreliable)',
  ipProtocol: 'udp',
  urlKey: 'fdsp',
  options: { bp, mode, pace, window: receiveWindow, associations, receiveBuffer },
  create: (url, options, context) => new DataChannelTransport({
    signalingUrl: url, bp: options.bp, mode: options.mode, associations: options.associations, receiveBuffer: options.receiveBuffer, paceBps: pace.paceBps(options.pace, context.highestBandwidthBps), windowBytes: receiveWindow.windowBytes(options.window), bufferLevel: context.bufferLevel, stallState: context.stallState, nextSegmentUrl: context.nextSegmentUrl,
  }),
  // The BP in force when the playback started (the middle of the range for dynamic BP); the
  // unreliable channel's pace (bits/s, null: unpaced); the receive window (bytes, null: none);
  // the UDP receive buffer asked of Chromium (receive-buffer-option.js).
  configFields: (transport) => ({ bp: transport.bp, mode: transport.mode, paceBps: transport.paceBps, windowBytes: transport.windowBytes, associations: transport.associations, receiveBuffer: transport.receiveBuffer }),
  segmentFields: fdsp.segmentFields,
  segmentNote: fdsp.segmentNote,
  summaryRows: fdsp.summaryRows,
  progressNote: fdsp.progressNote,
  resultColumns: fdsp.resultColumns,
  liveRefusal: fdsp.liveRefusal,
};
