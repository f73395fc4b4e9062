/* mesa_tokens IN.tgsi OUT.tgsib: TGSI text as Mesa's tokens, through
 * Mesa's own tgsi_text_translate (README.md says how it is built; it is
 * not part of uscc's build, which needs no Mesa). */
#include <stdio.h>
#include <stdlib.h>
#include "tgsi/tgsi_text.h"
#include "tgsi/tgsi_parse.h"
int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return 1;
	static char text[1 << 20];
	size_t n = fread(text, 1, sizeof text - 1, f);
	text[n] = 0;
	static struct tgsi_token toks[1 << 16];
	if (!tgsi_text_translate(text, toks, 1 << 16)) { fprintf(stderr, "translate failed\n"); return 1; }
	FILE *o = fopen(argv[2], "wb");
	fwrite(toks, sizeof toks[0], tgsi_num_tokens(toks), o);
	fclose(o);
	return 0;
}
