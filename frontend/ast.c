/* AST node construction. */
#include "ast.h"

struct ast_node *ast_new(struct arena *a, enum ast_kind kind, struct src_loc loc)
{
	struct ast_node *n = arena_alloc(a, sizeof *n);
	if (n) {
		n->kind = kind;
		n->loc = loc;
	}
	return n;
}

void ast_list_add(struct ast_list *l, struct ast_node *n)
{
	if (!n)
		return;
	if (l->last)
		l->last->next = n;
	else
		l->first = n;
	l->last = n;
}

struct ast_type *ast_type_new(struct arena *a, struct src_loc loc)
{
	struct ast_type *t = arena_alloc(a, sizeof *t);
	if (t)
		t->loc = loc;
	return t;
}
