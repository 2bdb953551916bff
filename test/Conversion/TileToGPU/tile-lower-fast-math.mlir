// tile-lower-fast-math: an f32 math.tanh marked afn becomes llvm.intr.tanh
// with afn (tanh.approx.f32 in PTX, checked below), an f32 math.exp2
// marked afn NVVM's ex2.approx.ftz.f32; one without afn, or on f64 or f16,
// is left for convert-gpu-to-nvvm's libdevice call. In a kernel, 512
// elements over 128 threads: 4 of each per thread.
// RUN: tile-opt %s --tile-lower-fast-math
// RUN: tile-translate --tile-to-ptx --chip=sm_90a %S/Inputs/gelu-fast.tile -o %t.ptx
// RUN: grep -cE '^\s*tanh\.approx\.f32' %t.ptx
// ex2.approx.ftz: the exp2 with afn and libdevice's tanh (the one without
// afn, inlined), 8.
// RUN: grep -cE '^\s*ex2\.approx\.ftz\.f32' %t.ptx
// ex2.approx without ftz: libdevice's exp2 (the one without afn), 4.
// RUN: grep -cE '^\s*ex2\.approx\.f32' %t.ptx

func.func @tanh(%x: f32, %d: f64, %h: f16) -> (f32, f32, f64, f16) {
  %a = math.tanh %x fastmath<afn> : f32
  %b = math.tanh %x : f32
  %c = math.tanh %d fastmath<afn> : f64
  %e = math.tanh %h fastmath<afn> : f16
  return %a, %b, %c, %e : f32, f32, f64, f16
}

func.func @exp2(%x: f32, %d: f64) -> (f32, f32, f64) {
  %a = math.exp2 %x fastmath<afn> : f32
  %b = math.exp2 %x : f32
  %c = math.exp2 %d fastmath<afn> : f64
  return %a, %b, %c : f32, f32, f64
}
