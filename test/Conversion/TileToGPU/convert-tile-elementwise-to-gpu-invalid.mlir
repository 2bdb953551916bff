// convert-tile-elementwise-to-gpu refuses broadcast inputs whose layout is
// not a slice of the outputs', and operands of the outputs' shape whose
// layouts place its elements differently (written by hand;
// tile-assign-layouts never makes either), with the conversion driver's
// "failed to legalize".
// RUN: tile-opt %s --split-input-file --convert-tile-elementwise-to-gpu --verify-diagnostics -o /dev/null

module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @foreign_slice() threads(32) {
    %x = tile.alloc_fragment : !tile.fragment<2x64xf32, #tile.blocked<threads = 32, vector = 2>>
    %r = tile.alloc_fragment : !tile.fragment<2x1xf32, #tile.slice<dim = 1, extent = 64, parent = #tile.blocked<threads = 32, vector = 4>>>
    // expected-error @+2 {{'tile.elementwise' op broadcasts '!tile.fragment<2x1xf32, #tile.slice<dim = 1, extent = 64, parent = #tile.blocked<threads = 32, vector = 4>>>', whose layout is not a slice of the outputs' layout #tile.blocked<threads = 32, vector = 2> (leave broadcast inputs' layouts to tile-assign-layouts)}}
    // expected-error @+1 {{failed to legalize operation 'tile.elementwise' that was explicitly marked illegal}}
    tile.elementwise ins(%x, %r : !tile.fragment<2x64xf32, #tile.blocked<threads = 32, vector = 2>>, !tile.fragment<2x1xf32, #tile.slice<dim = 1, extent = 64, parent = #tile.blocked<threads = 32, vector = 4>>>)
                     outs(%x : !tile.fragment<2x64xf32, #tile.blocked<threads = 32, vector = 2>>) {
    ^bb0(%a: f32, %b: f32):
      %m = arith.mulf %a, %b : f32
      tile.yield %m : f32
    }
  }
}

// -----

// Runs of 2 and runs of 4 over 32 threads put column 2 in different
// threads: no one distribution reads both.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @mixed_layouts() threads(32) {
    %x = tile.alloc_fragment : !tile.fragment<2x64xf32, #tile.blocked<threads = 32, vector = 2>>
    %y = tile.alloc_fragment : !tile.fragment<2x64xf32, #tile.blocked<threads = 32, vector = 4>>
    // expected-error @+2 {{'tile.elementwise' op mixes fragments whose layouts #tile.blocked<threads = 32, vector = 2> and #tile.blocked<threads = 32, vector = 4> place the elements of 2x64 differently; give them one layout (leave it to tile-assign-layouts)}}
    // expected-error @+1 {{failed to legalize operation 'tile.elementwise' that was explicitly marked illegal}}
    tile.elementwise ins(%x, %y : !tile.fragment<2x64xf32, #tile.blocked<threads = 32, vector = 2>>, !tile.fragment<2x64xf32, #tile.blocked<threads = 32, vector = 4>>)
                     outs(%x : !tile.fragment<2x64xf32, #tile.blocked<threads = 32, vector = 2>>) {
    ^bb0(%a: f32, %b: f32):
      %m = arith.addf %a, %b : f32
      tile.yield %m : f32
    }
  }
}
