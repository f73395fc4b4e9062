/* What the lexer and the parser share for one translation unit. */
#ifndef USCC_FE_PARSE_H
#define USCC_FE_PARSE_H

#include "ast.h"
#include "name_map.h"
#include "fe.h"
#include "pp.h"

struct parse_ctx {
	struct fe_ctx *fe;
	const struct pp_output *pp;
	size_t off;                   /* lexer position in pp->text */
	struct ast_list unit;         /* external declarations */
	struct name_map struct_names; /* names the lexer returns as TYPE_NAME */
	void *scanner;
	long ntokens;                 /* tokens read, against LIMIT_TOKENS */
	bool over_limit;              /* a limit stopped the parse: no more errors */
};

/* Parses the preprocessed text into pc->unit; false on syntax errors. */
bool parse_unit(struct parse_ctx *pc);
/* The lexer's side: is `name` a struct type name, and remember one. */
bool parse_is_struct_name(const struct parse_ctx *pc, const char *name);
void parse_add_struct_name(struct parse_ctx *pc, const char *name);
void parse_forget_struct_name(struct parse_ctx *pc, const char *name);

#endif
