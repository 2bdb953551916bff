// Hand-written LLVM+NVVM input: the three translate stages. LLVM IR and PTX
// whole (a ptx_kernel with "nvvm.maxntid"="128,1,1"; .entry with .maxntid
// 128, 1, 1, two ld.global.b32, add.rn.f32, st.global.b32).
// REQUIRES: ptxas
// RUN: tile-translate --tile-to-llvmir --chip=sm_90a %s
// RUN: tile-translate --tile-to-ptx --chip=sm_90a %s
// The cubin is a binary ELF: readelf excerpts (its class and machine, the
// kernel's symbol).
// RUN: tile-translate --tile-to-cubin --chip=sm_90a %s -o %t.cubin && readelf -h %t.cubin | grep -E 'Class|Machine' && readelf -sW %t.cubin | grep -o 'FUNC .*vadd_nvvm' | sed -E 's/ +/ /g'

module {
  llvm.func @vadd_nvvm(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %c: !llvm.ptr<1>, %n: i32)
      attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %bid = nvvm.read.ptx.sreg.ctaid.x : i32
    %bdim = nvvm.read.ptx.sreg.ntid.x : i32
    %base = llvm.mul %bid, %bdim : i32
    %i = llvm.add %base, %tid : i32
    %inb = llvm.icmp "slt" %i, %n : i32
    llvm.cond_br %inb, ^body, ^exit
  ^body:
    %pa = llvm.getelementptr %a[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %pb = llvm.getelementptr %b[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %pc = llvm.getelementptr %c[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %x = llvm.load %pa : !llvm.ptr<1> -> f32
    %y = llvm.load %pb : !llvm.ptr<1> -> f32
    %s = llvm.fadd %x, %y : f32
    llvm.store %s, %pc : f32, !llvm.ptr<1>
    llvm.br ^exit
  ^exit:
    llvm.return
  }
}
