// tile-pack-conversions: a vector built of truncf results (directly or
// through bitcasts back to their type, as fragments hold bf16 as i16) is
// converted as one vector where it is built; scalar truncations stay for
// their other users. Mixed sources, or an element that is not a
// truncation, leave the vector alone. In a kernel's PTX, the 16-byte
// stores of a bf16 fragment (16 elements a thread) take 8
// cvt.rn.bf16x2.f32 on the in-bounds path (and 8 more on the edge path's
// vector store), the 16 scalar conversions only the edge path's element
// stores.
// RUN: tile-opt %s --tile-pack-conversions
// RUN: tile-translate --tile-to-ptx --chip=sm_90a %S/Inputs/scale-bf16.tile -o %t.ptx
// RUN: grep -cE '^\s*cvt\.rn\.bf16x2\.f32' %t.ptx
// RUN: grep -cE '^\s*cvt\.rn\.bf16\.f32' %t.ptx

func.func @packed(%a: f32, %b: f32) -> vector<2xbf16> {
  %x = arith.truncf %a : f32 to bf16
  %y = arith.truncf %b : f32 to bf16
  %v = vector.from_elements %x, %y : vector<2xbf16>
  return %v : vector<2xbf16>
}

func.func @through_bitcasts(%a: f32, %b: f32) -> (vector<2xbf16>, i16) {
  %x = arith.truncf %a : f32 to bf16
  %y = arith.truncf %b : f32 to bf16
  %xi = arith.bitcast %x : bf16 to i16
  %yi = arith.bitcast %y : bf16 to i16
  %xb = arith.bitcast %xi : i16 to bf16
  %yb = arith.bitcast %yi : i16 to bf16
  %v = vector.from_elements %xb, %yb : vector<2xbf16>
  return %v, %xi : vector<2xbf16>, i16
}

func.func @not_all_truncations(%a: f32, %b: bf16) -> vector<2xbf16> {
  %x = arith.truncf %a : f32 to bf16
  %v = vector.from_elements %x, %b : vector<2xbf16>
  return %v : vector<2xbf16>
}

func.func @mixed_sources(%a: f32, %b: f64) -> vector<2xbf16> {
  %x = arith.truncf %a : f32 to bf16
  %y = arith.truncf %b : f64 to bf16
  %v = vector.from_elements %x, %y : vector<2xbf16>
  return %v : vector<2xbf16>
}
