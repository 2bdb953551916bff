// Every tool prints tile's version and the LLVM/MLIR release it was built
// with (not LLVM's version alone).
// RUN: tile-opt --version | grep -oE 'tile version [0-9]+\.[0-9]+\.[0-9]+|built with LLVM and MLIR [0-9]+'
// RUN: tile-translate --version | grep -oE 'tile version [0-9]+\.[0-9]+\.[0-9]+|built with LLVM and MLIR [0-9]+'
// RUN: tile-lsp-server --version | grep -oE 'tile version [0-9]+\.[0-9]+\.[0-9]+|built with LLVM and MLIR [0-9]+'
// RUN: tile-run --version | grep -oE 'tile version [0-9]+\.[0-9]+\.[0-9]+'
