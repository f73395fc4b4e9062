/* TGSI's names: opcodes (tgsi_opcodes.def), register files and texture
 * targets, spelled as tgsi_dump prints them (tgsi_strings.c). */
#include "tgsi_prog.h"

#include <string.h>
#include "ir.h"

const struct tgsi_op_info tgsi_op_infos[TGSI_OP_COUNT] = {
#define TGSI_OP(name, ndst, nsrc, kind, ir) { #name, ndst, nsrc, kind, ir },
#include "tgsi_opcodes.def"
#undef TGSI_OP
};

const char *const tgsi_file_names[TGSI_FILE_COUNT] = {
	"NULL", "IN", "OUT", "TEMP", "CONST", "IMM", "SAMP", "SVIEW", "ADDR",
};

const char *const tgsi_target_names[TGSI_TARGET_COUNT] = {
	"BUFFER", "1D", "2D", "3D", "CUBE", "RECT", "SHADOW1D", "SHADOW2D", "SHADOWRECT",
	"1D_ARRAY", "2D_ARRAY", "SHADOW1D_ARRAY", "SHADOW2D_ARRAY", "SHADOWCUBE", "2D_MSAA",
	"2D_ARRAY_MSAA", "CUBEARRAY", "SHADOWCUBEARRAY", "UNKNOWN",
};

/* Whether name[0..len) spells `known`: the first character first, since
 * most of the table differs there (a strlen of every opcode's name for
 * each instruction was 2 % of a real-world TGSI compile). */
static bool spells(const char *known, const char *name, int len)
{
	return len > 0 && known[0] == name[0] && !strncmp(known, name, (size_t)len) &&
	       known[len] == '\0';
}

int tgsi_name_find(const char *const *names, int n, const char *name, int len)
{
	for (int i = 0; i < n; i++)
		if (spells(names[i], name, len))
			return i;
	return -1;
}

int tgsi_opcode_find(const char *name, int len)
{
	for (int i = 0; i < TGSI_OP_COUNT; i++)
		if (spells(tgsi_op_infos[i].name, name, len))
			return i;
	return -1;
}
