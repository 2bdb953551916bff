// tile-pack-conversions: a vector built of truncf results (directly or
// through bitcasts back to their type, as fragments hold bf16 as i16) is
// converted as one vector where it is built; scalar truncations stay for
// their other users. Mixed sources, or an element that is not a
// truncation, leave the vector alone. In a kernel's PTX, the 16-byte
// stores of a bf16 fragment (16 elements a thread) take 8
// cvt.rn.bf16x2.f32 on the in-bounds path (8 more on the path of runs
// whole or outside, and 8 on the edge path's vector store), the 16 scalar
// conversions only the edge path's element stores.
// The other way, bf16 -> f32 is the shift it is: element 2k of a 16-bit
// vector is its 32-bit word k shifted up by 16, element 2k + 1 the word
// masked; any other bf16 is widened and shifted; f16 is left alone.
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

func.func @widen_packed(%v: vector<8xbf16>) -> (f32, f32) {
  %a = vector.extract %v[2] : bf16 from vector<8xbf16>
  %b = vector.extract %v[5] : bf16 from vector<8xbf16>
  %x = arith.extf %a : bf16 to f32
  %y = arith.extf %b : bf16 to f32
  return %x, %y : f32, f32
}

func.func @widen_through_bitcast(%v: vector<4xi16>) -> f32 {
  %a = vector.extract %v[3] : i16 from vector<4xi16>
  %b = arith.bitcast %a : i16 to bf16
  %x = arith.extf %b : bf16 to f32
  return %x : f32
}

func.func @widen_alone(%a: bf16, %v: vector<2xbf16>) -> (f32, vector<2xf32>) {
  %x = arith.extf %a : bf16 to f32
  %y = arith.extf %v : vector<2xbf16> to vector<2xf32>
  return %x, %y : f32, vector<2xf32>
}

func.func @f16_untouched(%a: f16) -> f32 {
  %x = arith.extf %a : f16 to f32
  return %x : f32
}
