// tile-lsp-server knows the tile dialect: opening this kernel in an editor
// publishes the verifier's error at its line (0-based 6 here), not
// "unknown dialect".
// RUN: bash %S/lsp-session.sh tile-lsp-server %s | grep -oE '"message":"[^"]*"|"line":[0-9]+|unknown dialect' | sort -u

tile.kernel @bad_swizzle() threads(128) {
  %s = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 16>>
}
