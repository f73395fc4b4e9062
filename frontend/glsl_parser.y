/* The GLSL grammar (GLSL 1.20 and ES 1.00, chapter 9 of each spec), building
 * the AST.  Syntax errors recover at the next ';' (or '}' at top level) so
 * that every error of a shader is reported. */
%define api.pure full
%define api.prefix {glslyy}
%define parse.error verbose
%locations
%param {void *scanner}
%parse-param {struct parse_ctx *pc}

%code requires {
#include "parse.h"
}

%code provides {
int glslyylex(GLSLYYSTYPE *lval, GLSLYYLTYPE *lloc, void *scanner);
}

%code {
#include <string.h>

/* Bounded parser stack: deep nesting is an error, not a crash. */
#define YYMAXDEPTH 4000
#define YYINITDEPTH 200

static void glslyyerror(GLSLYYLTYPE *l, void *scanner, struct parse_ctx *pc, const char *msg)
{
	(void)scanner;
	if (pc->over_limit)
		return; /* the limit's own error says it all */
	if (strcmp(msg, "memory exhausted") == 0)
		msg = "the program is nested too deeply";
	diag_error(pc->fe->diag, fe_loc(pc->fe, l->first_line, l->first_column), "%s", msg);
}

#define LOC(l) fe_loc(pc->fe, (l).first_line, (l).first_column)
#define NODE(kind, l) ast_new(pc->fe->arena, (kind), LOC(l))

static struct ast_node *node2(struct parse_ctx *pc, enum ast_kind k, struct src_loc loc, int op,
			      struct ast_node *a, struct ast_node *b)
{
	struct ast_node *n = ast_new(pc->fe->arena, k, loc);
	if (n) {
		n->op = op;
		n->kid[0] = a;
		n->kid[1] = b;
	}
	return n;
}

static struct ast_type *type_of_builtin(struct parse_ctx *pc, const struct glsl_type *t,
					struct src_loc loc)
{
	struct ast_type *ty = ast_type_new(pc->fe->arena, loc);
	if (ty)
		ty->builtin = t;
	return ty;
}

/* Merges qualifiers `q` into the type specifier `t`. */
static struct ast_type *qualify(struct ast_type *q, struct ast_type *t)
{
	if (!q || !t)
		return t;
	t->storage = q->storage;
	t->storage_twice |= q->storage_twice;
	t->invariant |= q->invariant;
	t->centroid |= q->centroid;
	if (q->precision)
		t->precision = q->precision;
	t->loc = q->loc;
	return t;
}

static struct ast_node *declarator(struct parse_ctx *pc, const char *name, struct src_loc loc,
				   bool is_array, struct ast_node *size, struct ast_node *init)
{
	struct ast_node *d = ast_new(pc->fe->arena, AST_DECLARATOR, loc);
	if (d) {
		d->name = name;
		d->is_array = is_array;
		d->kid[0] = size;
		d->kid[1] = init;
	}
	return d;
}
}

%union {
	long long i;
	double f;
	const char *s;
	const struct glsl_type *type;
	struct ast_node *node;
	struct ast_type *ty;
	struct ast_list list;
	struct ast_struct *st;
}

%token <s> IDENTIFIER "identifier" TYPE_NAME "struct type name"
%token <i> INTCONST "integer constant" BOOLCONST "boolean constant"
%token <i> OP_ASSIGN "assignment operator" PRECQUAL "precision qualifier"
%token <f> FLOATCONST "floating-point constant"
%token <type> BASIC_TYPE "type name"
%token ATTRIBUTE "'attribute'" CONST "'const'" UNIFORM "'uniform'" VARYING "'varying'"
%token BREAK "'break'" CONTINUE "'continue'" DO "'do'" FOR "'for'" WHILE "'while'" IF "'if'"
%token ELSE "'else'" IN "'in'" OUT "'out'" INOUT "'inout'" DISCARD "'discard'"
%token RETURN "'return'" STRUCT "'struct'" INVARIANT "'invariant'" CENTROID "'centroid'"
%token PRECISION "'precision'"
%token LEFT_OP "'<<'" RIGHT_OP "'>>'" INC_OP "'++'" DEC_OP "'--'" LE_OP "'<='" GE_OP "'>='"
%token EQ_OP "'=='" NE_OP "'!='" AND_OP "'&&'" OR_OP "'||'" XOR_OP "'^^'"

%type <node> primary postfix unary binary conditional assignment expression
%type <node> constant_expression function_call call_header call_args
%type <node> statement simple_statement compound_statement declaration
%type <node> selection_statement iteration_statement jump_statement expression_statement
%type <node> condition for_rest_cond for_rest_step external_declaration function_definition
%type <node> parameter init_declarator_list single_declaration initializer
%type <node> function_prototype function_declarator function_header
%type <list> statement_list member_list member_declarators identifier_list
%type <node> member_declaration member_declarator
%type <ty> type_specifier type_nonarray fully_specified_type qualifier qualifiers
%type <st> struct_specifier

%right ')' ELSE
%left OR_OP
%left XOR_OP
%left AND_OP
%left '|'
%left '^'
%left '&'
%left EQ_OP NE_OP
%left '<' '>' LE_OP GE_OP
%left LEFT_OP RIGHT_OP
%left '+' '-'
%left '*' '/' '%'

%start translation_unit

%%

translation_unit
	: %empty
	| translation_unit external_declaration { ast_list_add(&pc->unit, $2); }
	;

external_declaration
	: function_definition
	| declaration
	| error ';' { $$ = NULL; }
	| error '}' { $$ = NULL; }
	;

function_definition
	: function_prototype compound_statement { $$ = $1; if ($$) $$->kid[1] = $2; }
	;

/* --- expressions --- */

primary
	: IDENTIFIER { $$ = NODE(AST_IDENT, @1); if ($$) $$->name = $1; }
	| INTCONST { $$ = NODE(AST_INT, @1); if ($$) $$->ival = $1; }
	| FLOATCONST { $$ = NODE(AST_FLOAT, @1); if ($$) $$->fval = $1; }
	| BOOLCONST { $$ = NODE(AST_BOOL, @1); if ($$) $$->ival = $1; }
	| '(' expression ')' { $$ = $2; }
	;

postfix
	: primary
	| postfix '[' expression ']' { $$ = node2(pc, AST_INDEX, LOC(@2), 0, $1, $3); }
	| function_call
	| postfix '.' IDENTIFIER {
		$$ = node2(pc, AST_FIELD, LOC(@3), 0, $1, NULL);
		if ($$) $$->name = $3; }
	| postfix '.' TYPE_NAME {
		$$ = node2(pc, AST_FIELD, LOC(@3), 0, $1, NULL);
		if ($$) $$->name = $3; }
	| postfix '.' IDENTIFIER '(' ')' {
		$$ = node2(pc, AST_LENGTH, LOC(@3), 0, $1, NULL);
		if ($$) $$->name = $3; }
	| postfix INC_OP { $$ = node2(pc, AST_UNARY, LOC(@2), AST_OP_POSTINC, $1, NULL); }
	| postfix DEC_OP { $$ = node2(pc, AST_UNARY, LOC(@2), AST_OP_POSTDEC, $1, NULL); }
	;

function_call
	: call_header ')' { $$ = $1; }
	| call_header BASIC_TYPE ')' {
		$$ = $1;
		if ($2 != &glsl_type_void)
			glslyyerror(&@2, scanner, pc, "syntax error, unexpected type name");
		}
	| call_args ')' { $$ = $1; }
	;

call_args
	: call_header assignment { $$ = $1; if ($$) { $$->kid[0] = $2; $$->kid[1] = $2; } }
	| call_args ',' assignment {
		$$ = $1;
		if ($$ && $3) {
			if ($$->kid[1]) $$->kid[1]->next = $3; else $$->kid[0] = $3;
			$$->kid[1] = $3;
		} }
	;

/* kid1 of a call node tracks the last argument while parsing */
call_header
	: IDENTIFIER '(' { $$ = NODE(AST_CALL, @1); if ($$) $$->name = $1; }
	| type_specifier '(' {
		$$ = ast_new(pc->fe->arena, AST_CALL, $1 ? $1->loc : LOC(@2));
		if ($$) $$->type = $1; }
	;

unary
	: postfix
	| INC_OP unary { $$ = node2(pc, AST_UNARY, LOC(@1), AST_OP_PREINC, $2, NULL); }
	| DEC_OP unary { $$ = node2(pc, AST_UNARY, LOC(@1), AST_OP_PREDEC, $2, NULL); }
	| '+' unary { $$ = node2(pc, AST_UNARY, LOC(@1), '+', $2, NULL); }
	| '-' unary { $$ = node2(pc, AST_UNARY, LOC(@1), '-', $2, NULL); }
	| '!' unary { $$ = node2(pc, AST_UNARY, LOC(@1), '!', $2, NULL); }
	| '~' unary { $$ = node2(pc, AST_UNARY, LOC(@1), '~', $2, NULL); }
	;

binary
	: unary
	| binary '*' binary { $$ = node2(pc, AST_BINARY, LOC(@2), '*', $1, $3); }
	| binary '/' binary { $$ = node2(pc, AST_BINARY, LOC(@2), '/', $1, $3); }
	| binary '%' binary { $$ = node2(pc, AST_BINARY, LOC(@2), '%', $1, $3); }
	| binary '+' binary { $$ = node2(pc, AST_BINARY, LOC(@2), '+', $1, $3); }
	| binary '-' binary { $$ = node2(pc, AST_BINARY, LOC(@2), '-', $1, $3); }
	| binary LEFT_OP binary { $$ = node2(pc, AST_BINARY, LOC(@2), AST_OP_LEFT, $1, $3); }
	| binary RIGHT_OP binary { $$ = node2(pc, AST_BINARY, LOC(@2), AST_OP_RIGHT, $1, $3); }
	| binary '<' binary { $$ = node2(pc, AST_BINARY, LOC(@2), '<', $1, $3); }
	| binary '>' binary { $$ = node2(pc, AST_BINARY, LOC(@2), '>', $1, $3); }
	| binary LE_OP binary { $$ = node2(pc, AST_BINARY, LOC(@2), AST_OP_LE, $1, $3); }
	| binary GE_OP binary { $$ = node2(pc, AST_BINARY, LOC(@2), AST_OP_GE, $1, $3); }
	| binary EQ_OP binary { $$ = node2(pc, AST_BINARY, LOC(@2), AST_OP_EQ, $1, $3); }
	| binary NE_OP binary { $$ = node2(pc, AST_BINARY, LOC(@2), AST_OP_NE, $1, $3); }
	| binary '&' binary { $$ = node2(pc, AST_BINARY, LOC(@2), '&', $1, $3); }
	| binary '^' binary { $$ = node2(pc, AST_BINARY, LOC(@2), '^', $1, $3); }
	| binary '|' binary { $$ = node2(pc, AST_BINARY, LOC(@2), '|', $1, $3); }
	| binary AND_OP binary { $$ = node2(pc, AST_BINARY, LOC(@2), AST_OP_AND, $1, $3); }
	| binary XOR_OP binary { $$ = node2(pc, AST_BINARY, LOC(@2), AST_OP_XOR, $1, $3); }
	| binary OR_OP binary { $$ = node2(pc, AST_BINARY, LOC(@2), AST_OP_OR, $1, $3); }
	;

conditional
	: binary
	| binary '?' expression ':' assignment {
		$$ = node2(pc, AST_TERNARY, LOC(@2), 0, $1, $3);
		if ($$) $$->kid[2] = $5; }
	;

assignment
	: conditional
	| unary '=' assignment { $$ = node2(pc, AST_ASSIGN, LOC(@2), '=', $1, $3); }
	| unary OP_ASSIGN assignment { $$ = node2(pc, AST_ASSIGN, LOC(@2), (int)$2, $1, $3); }
	;

expression
	: assignment
	| expression ',' assignment { $$ = node2(pc, AST_BINARY, LOC(@2), ',', $1, $3); }
	;

constant_expression
	: conditional
	;

/* --- declarations --- */

declaration
	: function_prototype ';' { $$ = $1; }
	| init_declarator_list ';' { $$ = $1; }
	| PRECISION PRECQUAL type_specifier ';' {
		$$ = NODE(AST_PRECISION, @1);
		if ($$ && $3) { $3->precision = (enum ast_precision)$2; $$->type = $3; } }
	| INVARIANT identifier_list ';' {
		$$ = NODE(AST_INVARIANT, @1);
		if ($$) $$->kid[0] = $2.first; }
	;

identifier_list
	: IDENTIFIER {
		$$.first = $$.last = NULL;
		struct ast_node *n = NODE(AST_IDENT, @1);
		if (n) n->name = $1;
		ast_list_add(&$$, n); }
	| identifier_list ',' IDENTIFIER {
		$$ = $1;
		struct ast_node *n = NODE(AST_IDENT, @3);
		if (n) n->name = $3;
		ast_list_add(&$$, n); }
	;

function_prototype
	: function_declarator ')'
	;

function_declarator
	: function_header
	| function_header parameter { $$ = $1; if ($$) { $$->kid[0] = $2; $$->kid[2] = $2; } }
	| function_declarator ',' parameter {
		$$ = $1;
		if ($$ && $3) {
			if ($$->kid[2]) $$->kid[2]->next = $3; else $$->kid[0] = $3;
			$$->kid[2] = $3;
		} }
	;

/* kid2 tracks the last parameter while parsing */
function_header
	: fully_specified_type IDENTIFIER '(' {
		$$ = NODE(AST_FUNCTION, @2);
		if ($$) { $$->name = $2; $$->type = $1; } }
	;

parameter
	: fully_specified_type {
		$$ = ast_new(pc->fe->arena, AST_PARAM, $1 ? $1->loc : LOC(@1));
		if ($$) $$->type = $1; }
	| fully_specified_type IDENTIFIER {
		$$ = NODE(AST_PARAM, @2);
		if ($$) { $$->type = $1; $$->name = $2; } }
	| fully_specified_type IDENTIFIER '[' constant_expression ']' {
		$$ = NODE(AST_PARAM, @2);
		if ($$) { $$->type = $1; $$->name = $2; $$->is_array = true; $$->kid[0] = $4; } }
	;

init_declarator_list
	: single_declaration
	| init_declarator_list ',' IDENTIFIER {
		$$ = $1;
		struct ast_node *d = declarator(pc, $3, LOC(@3), false, NULL, NULL);
		if ($$ && d) { if ($$->kid[1]) $$->kid[1]->next = d; else $$->kid[0] = d; $$->kid[1] = d; } }
	| init_declarator_list ',' IDENTIFIER '[' ']' {
		$$ = $1;
		struct ast_node *d = declarator(pc, $3, LOC(@3), true, NULL, NULL);
		if ($$ && d) { if ($$->kid[1]) $$->kid[1]->next = d; else $$->kid[0] = d; $$->kid[1] = d; } }
	| init_declarator_list ',' IDENTIFIER '[' constant_expression ']' {
		$$ = $1;
		struct ast_node *d = declarator(pc, $3, LOC(@3), true, $5, NULL);
		if ($$ && d) { if ($$->kid[1]) $$->kid[1]->next = d; else $$->kid[0] = d; $$->kid[1] = d; } }
	| init_declarator_list ',' IDENTIFIER '[' ']' '=' initializer {
		$$ = $1;
		struct ast_node *d = declarator(pc, $3, LOC(@3), true, NULL, $7);
		if ($$ && d) { if ($$->kid[1]) $$->kid[1]->next = d; else $$->kid[0] = d; $$->kid[1] = d; } }
	| init_declarator_list ',' IDENTIFIER '[' constant_expression ']' '=' initializer {
		$$ = $1;
		struct ast_node *d = declarator(pc, $3, LOC(@3), true, $5, $8);
		if ($$ && d) { if ($$->kid[1]) $$->kid[1]->next = d; else $$->kid[0] = d; $$->kid[1] = d; } }
	| init_declarator_list ',' IDENTIFIER '=' initializer {
		$$ = $1;
		struct ast_node *d = declarator(pc, $3, LOC(@3), false, NULL, $5);
		if ($$ && d) { if ($$->kid[1]) $$->kid[1]->next = d; else $$->kid[0] = d; $$->kid[1] = d; } }
	;

/* AST_DECL: kid0 first declarator, kid1 (while parsing) the last */
single_declaration
	: fully_specified_type {
		$$ = ast_new(pc->fe->arena, AST_DECL, $1 ? $1->loc : LOC(@1));
		if ($$) $$->type = $1; }
	| fully_specified_type IDENTIFIER {
		$$ = ast_new(pc->fe->arena, AST_DECL, $1 ? $1->loc : LOC(@1));
		if ($$) { $$->type = $1; $$->kid[0] = $$->kid[1] = declarator(pc, $2, LOC(@2), false, NULL, NULL); } }
	| fully_specified_type IDENTIFIER '[' ']' {
		$$ = ast_new(pc->fe->arena, AST_DECL, $1 ? $1->loc : LOC(@1));
		if ($$) { $$->type = $1; $$->kid[0] = $$->kid[1] = declarator(pc, $2, LOC(@2), true, NULL, NULL); } }
	| fully_specified_type IDENTIFIER '[' constant_expression ']' {
		$$ = ast_new(pc->fe->arena, AST_DECL, $1 ? $1->loc : LOC(@1));
		if ($$) { $$->type = $1; $$->kid[0] = $$->kid[1] = declarator(pc, $2, LOC(@2), true, $4, NULL); } }
	| fully_specified_type IDENTIFIER '[' ']' '=' initializer {
		$$ = ast_new(pc->fe->arena, AST_DECL, $1 ? $1->loc : LOC(@1));
		if ($$) { $$->type = $1; $$->kid[0] = $$->kid[1] = declarator(pc, $2, LOC(@2), true, NULL, $6); } }
	| fully_specified_type IDENTIFIER '[' constant_expression ']' '=' initializer {
		$$ = ast_new(pc->fe->arena, AST_DECL, $1 ? $1->loc : LOC(@1));
		if ($$) { $$->type = $1; $$->kid[0] = $$->kid[1] = declarator(pc, $2, LOC(@2), true, $4, $7); } }
	| fully_specified_type IDENTIFIER '=' initializer {
		$$ = ast_new(pc->fe->arena, AST_DECL, $1 ? $1->loc : LOC(@1));
		if ($$) { $$->type = $1; $$->kid[0] = $$->kid[1] = declarator(pc, $2, LOC(@2), false, NULL, $4); } }
	/* a variable named like a struct type hides it: the lexer (which knows
	 * no scopes) reads the name as a variable from here on */
	| fully_specified_type TYPE_NAME {
		parse_forget_struct_name(pc, $2);
		$$ = ast_new(pc->fe->arena, AST_DECL, $1 ? $1->loc : LOC(@1));
		if ($$) { $$->type = $1; $$->kid[0] = $$->kid[1] = declarator(pc, $2, LOC(@2), false, NULL, NULL); } }
	| fully_specified_type TYPE_NAME '=' {
		parse_forget_struct_name(pc, $2); } initializer {
		$$ = ast_new(pc->fe->arena, AST_DECL, $1 ? $1->loc : LOC(@1));
		if ($$) { $$->type = $1; $$->kid[0] = $$->kid[1] = declarator(pc, $2, LOC(@2), false, NULL, $5); } }
	;

initializer
	: assignment
	;

fully_specified_type
	: type_specifier
	| qualifiers type_specifier { $$ = qualify($1, $2); }
	;

qualifiers
	: qualifier
	| qualifiers qualifier {
		$$ = $1;
		if ($$ && $2) {
			if ($2->storage) {
				$$->storage_twice |= $$->storage != AST_STORAGE_NONE;
				$$->storage = $2->storage;
			}
			$$->invariant |= $2->invariant;
			$$->centroid |= $2->centroid;
			if ($2->precision) $$->precision = $2->precision;
		} }
	;

qualifier
	: CONST { $$ = ast_type_new(pc->fe->arena, LOC(@1)); if ($$) $$->storage = AST_STORAGE_CONST; }
	| ATTRIBUTE { $$ = ast_type_new(pc->fe->arena, LOC(@1)); if ($$) $$->storage = AST_STORAGE_ATTRIBUTE; }
	| VARYING { $$ = ast_type_new(pc->fe->arena, LOC(@1)); if ($$) $$->storage = AST_STORAGE_VARYING; }
	| UNIFORM { $$ = ast_type_new(pc->fe->arena, LOC(@1)); if ($$) $$->storage = AST_STORAGE_UNIFORM; }
	| IN { $$ = ast_type_new(pc->fe->arena, LOC(@1)); if ($$) $$->storage = AST_STORAGE_IN; }
	| OUT { $$ = ast_type_new(pc->fe->arena, LOC(@1)); if ($$) $$->storage = AST_STORAGE_OUT; }
	| INOUT { $$ = ast_type_new(pc->fe->arena, LOC(@1)); if ($$) $$->storage = AST_STORAGE_INOUT; }
	| INVARIANT { $$ = ast_type_new(pc->fe->arena, LOC(@1)); if ($$) $$->invariant = true; }
	| CENTROID { $$ = ast_type_new(pc->fe->arena, LOC(@1)); if ($$) $$->centroid = true; }
	| PRECQUAL { $$ = ast_type_new(pc->fe->arena, LOC(@1)); if ($$) $$->precision = (enum ast_precision)$1; }
	;

type_specifier
	: type_nonarray
	| type_nonarray '[' ']' { $$ = $1; if ($$) $$->is_array = true; }
	| type_nonarray '[' constant_expression ']' {
		$$ = $1;
		if ($$) { $$->is_array = true; $$->array_size = $3; } }
	;

type_nonarray
	: BASIC_TYPE { $$ = type_of_builtin(pc, $1, LOC(@1)); }
	| TYPE_NAME {
		$$ = ast_type_new(pc->fe->arena, LOC(@1));
		if ($$) $$->type_name = $1; }
	| struct_specifier {
		$$ = ast_type_new(pc->fe->arena, $1 ? $1->loc : LOC(@1));
		if ($$) $$->struct_def = $1; }
	;

struct_specifier
	: STRUCT IDENTIFIER '{' member_list '}' {
		$$ = arena_alloc(pc->fe->arena, sizeof *$$);
		if ($$) { $$->name = $2; $$->members = $4.first; $$->loc = LOC(@1); }
		parse_add_struct_name(pc, $2); }
	| STRUCT TYPE_NAME '{' member_list '}' {
		$$ = arena_alloc(pc->fe->arena, sizeof *$$);
		if ($$) { $$->name = $2; $$->members = $4.first; $$->loc = LOC(@1); } }
	| STRUCT '{' member_list '}' {
		$$ = arena_alloc(pc->fe->arena, sizeof *$$);
		if ($$) { $$->members = $3.first; $$->loc = LOC(@1); } }
	;

member_list
	: member_declaration { $$.first = $$.last = NULL; ast_list_add(&$$, $1); }
	| member_list member_declaration { $$ = $1; ast_list_add(&$$, $2); }
	;

member_declaration
	: fully_specified_type member_declarators ';' {
		$$ = ast_new(pc->fe->arena, AST_DECL, $1 ? $1->loc : LOC(@1));
		if ($$) { $$->type = $1; $$->kid[0] = $2.first; } }
	;

member_declarators
	: member_declarator { $$.first = $$.last = NULL; ast_list_add(&$$, $1); }
	| member_declarators ',' member_declarator { $$ = $1; ast_list_add(&$$, $3); }
	;

member_declarator
	: IDENTIFIER { $$ = declarator(pc, $1, LOC(@1), false, NULL, NULL); }
	| TYPE_NAME { $$ = declarator(pc, $1, LOC(@1), false, NULL, NULL); }
	| IDENTIFIER '[' constant_expression ']' { $$ = declarator(pc, $1, LOC(@1), true, $3, NULL); }
	;

/* --- statements --- */

statement
	: compound_statement
	| simple_statement
	;

simple_statement
	: declaration
	| expression_statement
	| selection_statement
	| iteration_statement
	| jump_statement
	| error ';' { $$ = NULL; }
	;

compound_statement
	: '{' '}' { $$ = NODE(AST_BLOCK, @1); }
	| '{' statement_list '}' { $$ = NODE(AST_BLOCK, @1); if ($$) $$->kid[0] = $2.first; }
	;

statement_list
	: statement { $$.first = $$.last = NULL; ast_list_add(&$$, $1); }
	| statement_list statement { $$ = $1; ast_list_add(&$$, $2); }
	;

expression_statement
	: ';' { $$ = NODE(AST_EXPR_STMT, @1); }
	| expression ';' { $$ = ast_new(pc->fe->arena, AST_EXPR_STMT, $1 ? $1->loc : LOC(@1)); if ($$) $$->kid[0] = $1; }
	;

selection_statement
	: IF '(' expression ')' statement %prec ')' {
		$$ = NODE(AST_IF, @1);
		if ($$) { $$->kid[0] = $3; $$->kid[1] = $5; } }
	| IF '(' expression ')' statement ELSE statement {
		$$ = NODE(AST_IF, @1);
		if ($$) { $$->kid[0] = $3; $$->kid[1] = $5; $$->kid[2] = $7; } }
	;

condition
	: expression
	| fully_specified_type IDENTIFIER '=' initializer {
		$$ = ast_new(pc->fe->arena, AST_DECL, $1 ? $1->loc : LOC(@1));
		if ($$) { $$->type = $1; $$->kid[0] = declarator(pc, $2, LOC(@2), false, NULL, $4); } }
	;

iteration_statement
	: WHILE '(' condition ')' statement {
		$$ = NODE(AST_WHILE, @1);
		if ($$) { $$->kid[0] = $3; $$->kid[1] = $5; } }
	| DO statement WHILE '(' expression ')' ';' {
		$$ = NODE(AST_DO, @1);
		if ($$) { $$->kid[0] = $2; $$->kid[1] = $5; } }
	| FOR '(' simple_statement for_rest_cond ';' for_rest_step ')' statement {
		$$ = NODE(AST_FOR, @1);
		if ($$) { $$->kid[0] = $3; $$->kid[1] = $4; $$->kid[2] = $6; $$->kid[3] = $8; } }
	;

for_rest_cond
	: %empty { $$ = NULL; }
	| condition
	;

for_rest_step
	: %empty { $$ = NULL; }
	| expression
	;

jump_statement
	: CONTINUE ';' { $$ = NODE(AST_CONTINUE, @1); }
	| BREAK ';' { $$ = NODE(AST_BREAK, @1); }
	| RETURN ';' { $$ = NODE(AST_RETURN, @1); }
	| RETURN expression ';' { $$ = NODE(AST_RETURN, @1); if ($$) $$->kid[0] = $2; }
	| DISCARD ';' { $$ = NODE(AST_DISCARD, @1); }
	;

%%

bool parse_is_struct_name(const struct parse_ctx *pc, const char *name)
{
	return name_map_get(&pc->struct_names, name) != NULL;
}

void parse_forget_struct_name(struct parse_ctx *pc, const char *name)
{
	name_map_remove(&pc->struct_names, name);
}

void parse_add_struct_name(struct parse_ctx *pc, const char *name)
{
	if (name)
		name_map_put(&pc->struct_names, pc->fe->arena, name, (void *)pc);
}
