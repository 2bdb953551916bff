// An unknown chip is refused, with the chips tile knows.
// RUN: not tile-opt %s --tile-attach-target=chip=sm_1000 2>&1 | sed -E 's|^[^ ]*/||'

tile.kernel @k() threads(32) {
}
