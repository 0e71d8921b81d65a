/* chain_hand_emu.c: chain_hand.cu compiled as C, its kernel run by hand_emu.h's emulation. */
#define HAND_EMULATE 1
#include "chain_hand.cu"
