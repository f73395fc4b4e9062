/* Which pixels and channels an ALU or TEX slot may write (ISA.md §3,
 * §6.6): a pixel writes when active or when the slot has WRITE_INACTIVE,
 * and each channel only where its predicate select passes.  Part of the
 * emulator's base, shared by emu_alu.c and emu_tex.c; flow control reads
 * the predicates its own way (emu_fc.c). */
#include "emu_internal.h"

bool emu_pixel_writes(const struct emu_pixel *px, const struct r500_cmn *cmn)
{
	return px->flow == EMU_ACTIVE || cmn->write_inactive;
}

/* Predicate select for channel c (0..2) of the RGB unit (§3, §6.6). */
bool emu_pred_rgb(const struct emu_pixel *px, const struct r500_cmn *cmn, int c)
{
	int sel = cmn->rgb_pred_sel & 7;
	bool bit;
	if (sel == R500_PRED_NONE)
		return true;
	if (sel == R500_PRED_RGBA)
		bit = px->pred >> c & 1;
	else if (sel <= R500_PRED_AAAA)
		bit = px->pred >> (sel - R500_PRED_RRRR) & 1;
	else
		bit = false; /* 6, 7 undefined: never write */
	return bit != (cmn->rgb_pred_inv & 1);
}

bool emu_pred_alpha(const struct emu_pixel *px, const struct r500_cmn *cmn)
{
	int sel = cmn->alpha_pred_sel & 7;
	bool bit;
	if (sel == R500_PRED_NONE)
		return true;
	if (sel == R500_PRED_RGBA || sel == R500_PRED_AAAA)
		bit = px->pred >> 3 & 1;
	else if (sel <= R500_PRED_BBBB)
		bit = px->pred >> (sel - R500_PRED_RRRR) & 1;
	else
		bit = false;
	return bit != (cmn->alpha_pred_inv & 1);
}
