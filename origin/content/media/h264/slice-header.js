'use strict';
// slice_header() of ITU-T H.264 7.3.3 (with 7.3.3.1-7.3.3.3), parsed field by field from the
// real SPS/PPS so that its exact end is known. FDSP (paper 000) sends every slice header
// reliably: one bit too few and the decoder cannot parse the slice at all.
const { BitReader, BitstreamError } = require('./bit-reader');

const SLICE_TYPES = ['P', 'B', 'I', 'SP', 'SI'];

function refPicListModification(r, sliceType) {
  const lists = sliceType === 'B' ? 2 : sliceType === 'I' || sliceType === 'SI' ? 0 : 1;
  for (let l = 0; l < lists; l++) {
    if (!r.flag()) continue;
    for (let guard = 0; ; guard++) {
      if (guard > 64) throw new BitstreamError('ref_pic_list_modification does not end');
      const idc = r.ue();
      if (idc === 3) break;
      if (idc > 5) throw new BitstreamError(`modification_of_pic_nums_idc ${idc} is invalid`);
      r.ue(); // abs_diff_pic_num_minus1, long_term_pic_num or abs_diff_view_idx_minus1
    }
  }
}

function predWeightTable(r, h, sps) {
  r.ue(); // luma_log2_weight_denom
  if (sps.chromaArrayType !== 0) r.ue(); // chroma_log2_weight_denom
  const lists = h.sliceType === 'B' ? 2 : 1;
  for (let l = 0; l < lists; l++) {
    const n = l === 0 ? h.numRefIdxL0Active : h.numRefIdxL1Active;
    for (let i = 0; i < n; i++) {
      if (r.flag()) {
        r.se();
        r.se();
      }
      if (sps.chromaArrayType !== 0 && r.flag()) {
        for (let j = 0; j < 2; j++) {
          r.se();
          r.se();
        }
      }
    }
  }
}

function decRefPicMarking(r, idr) {
  if (idr) {
    r.skip(2); // no_output_of_prior_pics_flag, long_term_reference_flag
    return;
  }
  if (!r.flag()) return; // adaptive_ref_pic_marking_mode_flag
  for (let guard = 0; ; guard++) {
    if (guard > 64) throw new BitstreamError('dec_ref_pic_marking does not end');
    const op = r.ue();
    if (op === 0) break;
    if (op > 6) throw new BitstreamError(`memory_management_control_operation ${op} is invalid`);
    if (op === 1 || op === 3) r.ue();
    if (op === 2) r.ue();
    if (op === 3 || op === 6) r.ue();
    if (op === 4) r.ue();
  }
}

/**
 * @param {Uint8Array} nal    a coded slice NAL unit (type 1 or 5), escaped, header byte included
 * @param {Map<number, object>} spsById, ppsById  from parameter-sets.js
 * @returns {object} fields, plus headerBits (RBSP bits from the NAL's first byte to the end of
 *   the header) and headerEnd (bytes of the escaped NAL up to that end, rounded up)
 */
function parseSliceHeader(nal, spsById, ppsById) {
  const r = new BitReader(nal);
  r.skip(1); // forbidden_zero_bit
  const nalRefIdc = r.u(2);
  const nalUnitType = r.u(5);
  if (nalUnitType !== 1 && nalUnitType !== 5) throw new BitstreamError(`NAL unit type ${nalUnitType} is not a coded slice`);
  const idr = nalUnitType === 5;
  const h = { nalRefIdc, nalUnitType, idr };
  h.firstMbInSlice = r.ue();
  h.sliceTypeRaw = r.ue();
  if (h.sliceTypeRaw > 9) throw new BitstreamError(`slice_type ${h.sliceTypeRaw} is invalid`);
  h.sliceType = SLICE_TYPES[h.sliceTypeRaw % 5];
  h.ppsId = r.ue();
  const pps = ppsById.get(h.ppsId);
  if (!pps) throw new BitstreamError(`slice refers to unknown PPS ${h.ppsId}`);
  const sps = spsById.get(pps.spsId);
  if (!sps) throw new BitstreamError(`PPS ${h.ppsId} refers to unknown SPS ${pps.spsId}`);
  if (sps.separateColourPlane) h.colourPlaneId = r.u(2);
  h.frameNum = r.u(sps.log2MaxFrameNum);
  h.fieldPic = false;
  if (!sps.frameMbsOnly) {
    h.fieldPic = r.flag();
    if (h.fieldPic) h.bottomField = r.flag();
  }
  if (idr) h.idrPicId = r.ue();
  if (sps.picOrderCntType === 0) {
    h.picOrderCntLsb = r.u(sps.log2MaxPicOrderCntLsb);
    if (pps.bottomFieldPicOrderInFramePresent && !h.fieldPic) h.deltaPicOrderCntBottom = r.se();
  }
  if (sps.picOrderCntType === 1 && !sps.deltaPicOrderAlwaysZero) {
    h.deltaPicOrderCnt0 = r.se();
    if (pps.bottomFieldPicOrderInFramePresent && !h.fieldPic) h.deltaPicOrderCnt1 = r.se();
  }
  if (pps.redundantPicCntPresent) h.redundantPicCnt = r.ue();
  if (h.sliceType === 'B') h.directSpatialMvPred = r.flag();
  h.numRefIdxL0Active = pps.numRefIdxL0DefaultActive;
  h.numRefIdxL1Active = pps.numRefIdxL1DefaultActive;
  if (h.sliceType === 'P' || h.sliceType === 'SP' || h.sliceType === 'B') {
    if (r.flag()) {
      h.numRefIdxL0Active = r.ue() + 1;
      if (h.sliceType === 'B') h.numRefIdxL1Active = r.ue() + 1;
    }
  }
  // nal_unit_type 20/21 (MVC) use ref_pic_list_mvc_modification; only 1 and 5 reach here.
  refPicListModification(r, h.sliceType);
  if ((pps.weightedPredFlag && (h.sliceType === 'P' || h.sliceType === 'SP')) || (pps.weightedBipredIdc === 1 && h.sliceType === 'B')) {
    predWeightTable(r, h, sps);
  }
  if (nalRefIdc !== 0) decRefPicMarking(r, idr);
  if (pps.entropyCodingModeFlag && h.sliceType !== 'I' && h.sliceType !== 'SI') h.cabacInitIdc = r.ue();
  h.sliceQpDelta = r.se();
  if (h.sliceType === 'SP' || h.sliceType === 'SI') {
    if (h.sliceType === 'SP') h.spForSwitch = r.flag();
    h.sliceQsDelta = r.se();
  }
  if (pps.deblockingFilterControlPresent) {
    h.disableDeblockingFilterIdc = r.ue();
    if (h.disableDeblockingFilterIdc !== 1) {
      h.sliceAlphaC0OffsetDiv2 = r.se();
      h.sliceBetaOffsetDiv2 = r.se();
    }
  }
  if (pps.numSliceGroups > 1 && pps.sliceGroupMapType >= 3 && pps.sliceGroupMapType <= 5) {
    const picSizeInMapUnits = sps.picWidthInMbs * sps.picHeightInMapUnits;
    const bits = Math.ceil(Math.log2(picSizeInMapUnits / pps.sliceGroupChangeRate + 1));
    h.sliceGroupChangeCycle = r.u(bits);
  }
  h.headerBits = r.pos;
  h.headerEnd = r.escapedByteEnd(r.pos);
  return h;
}

module.exports = { parseSliceHeader, SLICE_TYPES };
