// An unknown chip is refused, with the chips tile knows.
// RUN: not tile-opt %s --tile-attach-target=chip=sm_1000

tile.kernel @k() threads(32) {
}
