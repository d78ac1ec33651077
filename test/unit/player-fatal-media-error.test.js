'use strict';
// Which dash.js ERROR events end a playback at once (player/lab-player.js): the media element's
// errors dash.js reports after giving up on them. Before, a dead player (Chromium refusing H.264
// whose slice headers were lost, paper000-fdsp's UDP-only cell) waited for the runner's 600 s
// timeout; download and manifest errors dash.js retries or reports otherwise are not fatal here.
const { isFatalMediaError } = require('../../player/lab-player');

test('a MEDIA_ERR_* report is fatal; download and other errors are not', () => {
  const decode = { error: { code: 3, message: 'MEDIA_ERR_DECODE (PipelineStatus::PIPELINE_ERROR_DECODE: Failed to send video packet for decoding)' } };
  expect(isFatalMediaError(decode)).toBe(true);
  expect(isFatalMediaError({ error: { code: 4, message: 'MEDIA_ERR_SRC_NOT_SUPPORTED' } })).toBe(true);
  expect(isFatalMediaError({ error: { code: 27, message: 'Failed loading fragment' } })).toBe(false); // a download error
  expect(isFatalMediaError({ error: { code: 3, message: 'manifest: 3 is not a media error' } })).toBe(false);
  expect(isFatalMediaError({ error: { code: 25, message: 'MEDIA_ERR_DECODE lookalike with a dash.js code' } })).toBe(false);
  expect(isFatalMediaError({})).toBe(false);
  expect(isFatalMediaError(null)).toBe(false);
});
