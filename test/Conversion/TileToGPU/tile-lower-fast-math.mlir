// tile-lower-fast-math: an f32 math.tanh marked afn becomes llvm.intr.tanh
// with afn (tanh.approx.f32 in PTX, checked below); one without afn, or on
// f64 or f16, is left for convert-gpu-to-nvvm's libdevice call. In a
// kernel, 512 elements over 128 threads: 4 of each per thread.
// RUN: tile-opt %s --tile-lower-fast-math
// RUN: tile-translate --tile-to-ptx --chip=sm_90a %S/Inputs/gelu-fast.tile -o %t.ptx
// RUN: grep -cE '^\s*tanh\.approx\.f32' %t.ptx
// The tanh without afn is libdevice's, inlined: its ex2.approx per element.
// RUN: grep -cE '^\s*ex2\.approx' %t.ptx

func.func @tanh(%x: f32, %d: f64, %h: f16) -> (f32, f32, f64, f16) {
  %a = math.tanh %x fastmath<afn> : f32
  %b = math.tanh %x : f32
  %c = math.tanh %d fastmath<afn> : f64
  %e = math.tanh %h fastmath<afn> : f16
  return %a, %b, %c, %e : f32, f32, f64, f16
}
