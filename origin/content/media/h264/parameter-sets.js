'use strict';
// Sequence and picture parameter sets (ITU-T H.264 7.3.2.1.1 and 7.3.2.2), parsed as far as
// the slice header syntax depends on them, which means all of the fields before the VUI.
const { BitReader, BitstreamError } = require('./bit-reader');

// Profiles whose SPS carries chroma_format_idc and friends (7.3.2.1.1).
const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

function skipScalingList(r, size) {
  let last = 8;
  let next = 8;
  for (let j = 0; j < size; j++) {
    if (next !== 0) {
      next = (last + r.se() + 256) % 256;
    }
    last = next === 0 ? last : next;
  }
}

/** @param {Uint8Array} nal  SPS NAL unit (escaped, header byte included) */
function parseSps(nal) {
  const r = new BitReader(nal);
  r.skip(8); // NAL header
  const sps = { profileIdc: r.u(8) };
  sps.constraintFlags = r.u(8);
  sps.levelIdc = r.u(8);
  sps.id = r.ue();
  if (sps.id > 31) throw new BitstreamError(`seq_parameter_set_id ${sps.id} out of range`);
  sps.chromaFormatIdc = 1;
  sps.separateColourPlane = false;
  if (HIGH_PROFILES.has(sps.profileIdc)) {
    sps.chromaFormatIdc = r.ue();
    if (sps.chromaFormatIdc === 3) sps.separateColourPlane = r.flag();
    sps.bitDepthLuma = r.ue() + 8;
    sps.bitDepthChroma = r.ue() + 8;
    r.skip(1); // qpprime_y_zero_transform_bypass_flag
    if (r.flag()) {
      const lists = sps.chromaFormatIdc !== 3 ? 8 : 12;
      for (let i = 0; i < lists; i++) if (r.flag()) skipScalingList(r, i < 6 ? 16 : 64);
    }
  }
  sps.log2MaxFrameNum = r.ue() + 4;
  sps.picOrderCntType = r.ue();
  if (sps.picOrderCntType === 0) {
    sps.log2MaxPicOrderCntLsb = r.ue() + 4;
  } else if (sps.picOrderCntType === 1) {
    sps.deltaPicOrderAlwaysZero = r.flag();
    r.se(); // offset_for_non_ref_pic
    r.se(); // offset_for_top_to_bottom_field
    const n = r.ue();
    for (let i = 0; i < n; i++) r.se();
  }
  sps.maxNumRefFrames = r.ue();
  r.skip(1); // gaps_in_frame_num_value_allowed_flag
  sps.picWidthInMbs = r.ue() + 1;
  sps.picHeightInMapUnits = r.ue() + 1;
  sps.frameMbsOnly = r.flag();
  if (!sps.frameMbsOnly) sps.mbAdaptiveFrameField = r.flag();
  // ChromaArrayType (7.4.2.1.1): 0 when colour planes are coded separately.
  sps.chromaArrayType = sps.separateColourPlane ? 0 : sps.chromaFormatIdc;
  return sps;
}

/** @param {Uint8Array} nal  PPS NAL unit; @param {Map<number, object>} spsById */
function parsePps(nal, spsById) {
  const r = new BitReader(nal);
  r.skip(8);
  const pps = { id: r.ue(), spsId: r.ue() };
  if (pps.id > 255) throw new BitstreamError(`pic_parameter_set_id ${pps.id} out of range`);
  const sps = spsById && spsById.get(pps.spsId);
  if (!sps) throw new BitstreamError(`PPS ${pps.id} refers to unknown SPS ${pps.spsId}`);
  pps.entropyCodingModeFlag = r.flag();
  pps.bottomFieldPicOrderInFramePresent = r.flag();
  pps.numSliceGroups = r.ue() + 1;
  if (pps.numSliceGroups > 1) {
    pps.sliceGroupMapType = r.ue();
    if (pps.sliceGroupMapType === 0) {
      for (let i = 0; i < pps.numSliceGroups; i++) r.ue();
    } else if (pps.sliceGroupMapType === 2) {
      for (let i = 0; i < pps.numSliceGroups - 1; i++) {
        r.ue();
        r.ue();
      }
    } else if (pps.sliceGroupMapType >= 3 && pps.sliceGroupMapType <= 5) {
      r.skip(1);
      pps.sliceGroupChangeRate = r.ue() + 1;
    } else if (pps.sliceGroupMapType === 6) {
      const units = r.ue() + 1;
      const bits = Math.ceil(Math.log2(pps.numSliceGroups));
      for (let i = 0; i < units; i++) r.skip(bits);
    }
  }
  pps.numRefIdxL0DefaultActive = r.ue() + 1;
  pps.numRefIdxL1DefaultActive = r.ue() + 1;
  pps.weightedPredFlag = r.flag();
  pps.weightedBipredIdc = r.u(2);
  r.se(); // pic_init_qp_minus26
  r.se(); // pic_init_qs_minus26
  r.se(); // chroma_qp_index_offset
  pps.deblockingFilterControlPresent = r.flag();
  pps.constrainedIntraPred = r.flag();
  pps.redundantPicCntPresent = r.flag();
  // The optional High-profile tail (transform_8x8_mode_flag, scaling lists) does not affect
  // the slice header, so it is not read.
  return pps;
}

module.exports = { parseSps, parsePps };
