'use strict';
// The papers' bitrate ladders as ABR tests use them.

// Paper 003's 14 rungs (kbps), 2 s segments; nominal segment bytes = kbps * 1000 * 2 / 8 = kbps * 250:
// 25 000, 50 000, 87 500, 125 000, 175 000, 225 000, 275 000, 325 000, 400 000, 475 000,
// 575 000, 700 000, 850 000, 1 125 000
const KBPS = [100, 200, 350, 500, 700, 900, 1100, 1300, 1600, 1900, 2300, 2800, 3400, 4500];
const LADDER = KBPS.map((k, index) => ({ index, bandwidth: k * 1000 }));
const SIZES = KBPS.map((k) => k * 250);
// Paper 002's 20 rungs (kbps), 4 s segments (the DASH dataset ladder).
const KBPS_002 = [45, 89, 129, 177, 218, 256, 323, 378, 509, 578, 783, 1008, 1207, 1474, 2087, 2410, 2944, 3341, 3614, 3936];
const LADDER_002 = KBPS_002.map((k, index) => ({ index, bandwidth: k * 1000 }));

module.exports = { KBPS, LADDER, SIZES, KBPS_002, LADDER_002 };
