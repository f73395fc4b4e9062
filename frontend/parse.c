/* Runs the flex scanner and the bison parser over preprocessed text. */
#include "parse.h"
#include "sema.h"

#include "glsl_parser.h"
#include "glsl_lexer.h"

int glslyyparse(void *scanner, struct parse_ctx *pc);

bool parse_unit(struct parse_ctx *pc)
{
	yyscan_t scanner;
	if (glslyylex_init_extra(pc, &scanner) != 0) {
		diag_error(pc->fe->diag, fe_loc(pc->fe, 0, 0), "out of memory");
		return false;
	}
	int errors0 = pc->fe->diag->errors;
	const char *name;
	for (int i = 0; sema_bi_struct_name(pc->fe, i, &name); i++)
		parse_add_struct_name(pc, name); /* gl_LightSourceParameters ... */
	YY_BUFFER_STATE buf = glslyy_scan_bytes(pc->pp->text, (int)pc->pp->len, scanner);
	pc->off = 0;
	int rc = glslyyparse(scanner, pc);
	glslyy_delete_buffer(buf, scanner);
	glslyylex_destroy(scanner);
	return rc == 0 && pc->fe->diag->errors == errors0;
}
