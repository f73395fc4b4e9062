/* Assembler for tests: parses the text r500_disasm_inst prints (syntax in
 * r500_disasm.c) back into a struct r500_inst.  Tokens are separated by
 * blanks; every token is checked, nothing is guessed. */
#include "r500_disasm_syntax.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_TOKENS = 64, MAX_TEXT = 1024 };

struct parser {
	char *tok[MAX_TOKENS];
	int n, i;
	struct r500_inst *out;
	char *why;
	size_t why_len;
};

static const char *peek(struct parser *p)
{
	return p->i < p->n ? p->tok[p->i] : "";
}

static bool fail(struct parser *p, const char *what)
{
	return r500_why(p->why, p->why_len, "token %d '%s': expected %s", p->i, peek(p), what);
}

static bool expect(struct parser *p, const char *word)
{
	if (strcmp(peek(p), word))
		return fail(p, word);
	p->i++;
	return true;
}

/* Decimal (or 0x hex) number <= max, ending at *end (if end) or string end. */
static bool parse_uint(const char *s, unsigned max, unsigned *v, const char **end)
{
	char *e;
	if (!(*s >= '0' && *s <= '9'))
		return false;
	unsigned long x = strtoul(s, &e, 0);
	if (x > max || (end ? false : *e != 0))
		return false;
	if (end)
		*end = e;
	*v = (unsigned)x;
	return true;
}

/* `fN` or `f[aL+N]` for file letter f; *end past it */
static bool parse_reg(const char *s, char file, unsigned max, uint16_t *addr, uint16_t *rel,
		      const char **end)
{
	unsigned v;
	if (*s++ != file)
		return false;
	*rel = strncmp(s, "[aL+", 4) == 0;
	if (*rel)
		s += 4;
	if (!parse_uint(s, max, &v, &s))
		return false;
	if (*rel && *s++ != ']')
		return false;
	*addr = (uint16_t)v;
	*end = s;
	return true;
}

static bool parse_slot(const char *s, struct r500_addr *a)
{
	const char *e;
	memset(a, 0, sizeof *a);
	if (*s == 't')
		return parse_reg(s, 't', 127, &a->addr, &a->rel, &e) && !*e;
	if (*s == 'c') {
		a->cnst = 1;
		return parse_reg(s, 'c', 255, &a->addr, &a->rel, &e) && !*e;
	}
	if (!(*s >= '0' && *s <= '9'))
		return false;
	char *fe;
	float v = strtof(s, &fe);
	a->rel = strcmp(fe, "[aL]") == 0;
	if (*fe && !a->rel)
		return false;
	for (unsigned code = 0; code < 128; code++)
		if (r500_inline_value(code) == v) {
			a->addr = (uint16_t)(R500_INLINE_BIT | code);
			return true;
		}
	return false;
}

/* letters of `set` in order, or "-" for none */
static bool parse_mask(const char *s, const char *set, unsigned *mask)
{
	*mask = 0;
	if (!strcmp(s, "-"))
		return true;
	int last = -1;
	for (; *s; s++) {
		const char *c = strchr(set, *s);
		if (!c || c - set <= last)
			return false;
		last = (int)(c - set);
		*mask |= 1u << last;
	}
	return *mask != 0;
}

static int find_name(const char *const *names, int count, const char *s)
{
	for (int i = 0; i < count; i++)
		if (names[i] && !strcmp(names[i], s))
			return i;
	return -1;
}

static int field_value(const char *field, unsigned type, const char *s)
{
	const struct r500_field *f = r500_field_find(field, type);
	return f ? find_name(f->value_names, 1 << f->width, s) : -1;
}

/* nop alu_wait sem_wait last write_inactive stat_we=N NAME=N */
static bool parse_flag(struct parser *p)
{
	struct r500_cmn *c = &p->out->cmn;
	const char *t = peek(p);
	static const char *const words[] = { "nop", "alu_wait", "sem_wait", "last", "write_inactive" };
	uint16_t *flags[] = { &c->nop, &c->alu_wait, &c->tex_sem_wait, &c->last, &c->write_inactive };
	int w = find_name(words, 5, t);
	if (w >= 0) {
		*flags[w] = 1;
		p->i++;
		return true;
	}
	const char *eq = strchr(t, '=');
	if (!eq || eq == t || eq - t >= 32)
		return false;
	char name[32];
	memcpy(name, t, (size_t)(eq - t));
	name[eq - t] = 0;
	if (!strcmp(name, "stat_we"))
		strcpy(name, "STAT_WE");
	for (const char *q = name; *q; q++)
		if (!((*q >= 'A' && *q <= 'Z') || *q == '_' || (*q >= '0' && *q <= '9')))
			return false;
	const struct r500_field *f = r500_field_find(name, c->type);
	unsigned v;
	if (!f || f->dword != 0 || !parse_uint(eq + 1, (1u << f->width) - 1, &v, NULL))
		return false;
	r500_field_set(p->out, f, (uint16_t)v);
	p->i++;
	return true;
}

/* (p.rrrr) or (!p.rrrr) */
static bool parse_pred(struct parser *p, uint16_t *sel, uint16_t *inv)
{
	const char *t = peek(p);
	if (t[0] != '(')
		return true;
	t++;
	*inv = *t == '!';
	t += *inv;
	size_t n = strlen(t);
	char name[8];
	if (strncmp(t, "p.", 2) || n < 4 || n > 8 || t[n - 1] != ')')
		return fail(p, "(p.SEL)");
	memcpy(name, t + 2, n - 3);
	name[n - 3] = 0;
	int v = find_name(r500_asm_pred_names, 8, name);
	if (v < 0)
		return fail(p, "predicate select");
	*sel = (uint16_t)v;
	p->i++;
	return true;
}

/* [-][|]srcN.swz[|][,] */
static bool parse_arg(struct parser *p, struct r500_arg *a, int nswz, bool comma)
{
	char buf[32];
	const char *t = peek(p);
	size_t n = strlen(t);
	if (n >= sizeof buf || n < 2)
		return fail(p, "operand");
	memcpy(buf, t, n + 1);
	if (comma) {
		if (buf[n - 1] != ',')
			return fail(p, "operand followed by ','");
		buf[--n] = 0;
	}
	char *s = buf;
	bool neg = *s == '-';
	s += neg;
	bool abs = *s == '|';
	if (abs) {
		s++;
		if (buf[n - 1] != '|')
			return fail(p, "closing '|'");
		buf[--n] = 0;
	}
	a->mod = (uint16_t)(abs ? (neg ? R500_MOD_NAB : R500_MOD_ABS) : (neg ? R500_MOD_NEG : R500_MOD_NONE));
	int sel = -1;
	for (int i = 0; i < 4; i++)
		if (!strncmp(s, r500_asm_sel_names[i], 4) && s[4] == '.')
			sel = i;
	if (sel < 0 || strlen(s + 5) != (size_t)nswz)
		return fail(p, "srcN.swizzle");
	a->sel = (uint16_t)sel;
	for (int i = 0; i < nswz; i++) {
		const char *c = strchr(r500_asm_swz_chars, s[5 + i]);
		if (!c || !*c)
			return fail(p, "swizzle letter");
		a->swz[i] = (uint16_t)(c - r500_asm_swz_chars);
	}
	p->i++;
	return true;
}

/* OP[_sat][omod] */
static bool parse_op(struct parser *p, bool rgb, uint16_t *op, uint16_t *clamp, uint16_t *omod)
{
	const struct r500_field *f = r500_field_find(rgb ? "RGB_OP" : "ALPHA_OP", p->out->cmn.type);
	const char *t = peek(p);
	for (int v = 0; v < 16; v++) {
		size_t n = strlen(f->value_names[v]);
		if (strncmp(t, f->value_names[v], n))
			continue;
		const char *s = t + n;
		bool sat = !strncmp(s, "_sat", 4);
		s += sat ? 4 : 0;
		int m = find_name(r500_asm_omod_names, 8, s);
		if (m < 0)
			continue;
		*op = (uint16_t)v;
		*clamp = sat;
		*omod = (uint16_t)m;
		p->i++;
		return true;
	}
	return fail(p, "opcode");
}

/* -> rtN.mask | p.mask<cmp> [depth] */
static bool parse_targets(struct parser *p, bool rgb, uint16_t *omask, uint16_t *target)
{
	const char *letters = rgb ? "rgb" : "a";
	if (strcmp(peek(p), "->"))
		return true;
	p->i++;
	const char *t = peek(p);
	if (!strncmp(t, "rt", 2) || !strncmp(t, "p.", 2)) {
		char buf[16];
		unsigned v = 0, m;
		const char *s = t + 2;
		if (t[0] == 'r' && (!parse_uint(s, 3, &v, &s) || *s++ != '.'))
			return fail(p, "rtN.mask");
		size_t n = strcspn(s, "=<>!");
		if (n >= sizeof buf)
			return fail(p, "mask");
		memcpy(buf, s, n);
		buf[n] = 0;
		if (!parse_mask(buf, letters, &m))
			return fail(p, "mask");
		if (t[0] == 'p') {
			int c = find_name(r500_asm_cmp_names, 4, s + n);
			if (c < 0)
				return fail(p, "compare code");
			v = (unsigned)c;
		} else if (s[n]) {
			return fail(p, "end of target");
		}
		*omask = (uint16_t)m;
		*target = (uint16_t)v;
		p->i++;
	}
	if (!rgb && !strcmp(peek(p), "depth")) {
		p->out->alu.w_omask = 1;
		p->i++;
	}
	return true;
}

/* : [(pred)] tN.mask = OP arg, arg, arg [-> targets] */
static bool parse_unit(struct parser *p, bool rgb)
{
	struct r500_cmn *c = &p->out->cmn;
	struct r500_alu *a = &p->out->alu;
	const char *e;
	unsigned mask;
	if (!expect(p, ":") ||
	    !parse_pred(p, rgb ? &c->rgb_pred_sel : &c->alpha_pred_sel,
			rgb ? &c->rgb_pred_inv : &c->alpha_pred_inv))
		return false;
	if (!parse_reg(peek(p), 't', 127, rgb ? &a->rgb_addrd : &a->alpha_addrd,
		       rgb ? &a->rgb_addrd_rel : &a->alpha_addrd_rel, &e) ||
	    *e != '.' || !parse_mask(e + 1, rgb ? "rgb" : "a", &mask))
		return fail(p, "destination tN.mask");
	if (rgb)
		c->rgb_wmask = (uint16_t)mask;
	else
		c->alpha_wmask = (uint16_t)mask;
	p->i++;
	if (!expect(p, "=") ||
	    !parse_op(p, rgb, rgb ? &a->rgb_op : &a->alpha_op, rgb ? &c->rgb_clamp : &c->alpha_clamp,
		      rgb ? &a->rgb_omod : &a->alpha_omod))
		return false;
	for (int k = 0; k < 3; k++)
		if (!parse_arg(p, rgb ? &a->rgb_arg[k] : &a->alpha_arg[k], rgb ? 3 : 1, k < 2))
			return false;
	return parse_targets(p, rgb, rgb ? &c->rgb_omask : &c->alpha_omask,
			     rgb ? &a->rgb_target : &a->alpha_target);
}

static bool parse_alu(struct parser *p)
{
	struct r500_alu *a = &p->out->alu;
	for (int k = 0; k < 3; k++) {
		char name[8], buf[64];
		snprintf(name, sizeof name, "src%d=", k);
		const char *t = peek(p);
		const char *comma = strchr(t, ',');
		if (strncmp(t, name, 5) || !comma || strlen(t) >= sizeof buf)
			return fail(p, "srcN=RGB,ALPHA");
		strcpy(buf, t + 5);
		buf[comma - t - 5] = 0;
		if (!parse_slot(buf, &a->rgb_addr.src[k]) || !parse_slot(comma + 1, &a->alpha_addr.src[k]))
			return fail(p, "source address tN, cN or inline value");
		p->i++;
	}
	if (!strncmp(peek(p), "srcp=", 5)) {
		char buf[32];
		const char *t = peek(p) + 5, *comma = strchr(t, ',');
		if (!comma || (size_t)(comma - t) >= sizeof buf)
			return fail(p, "srcp=RGB,ALPHA");
		memcpy(buf, t, (size_t)(comma - t));
		buf[comma - t] = 0;
		int r = field_value("RGB_SRCP_OP", p->out->cmn.type, buf);
		int al = field_value("ALPHA_SRCP_OP", p->out->cmn.type, comma + 1);
		if (r < 0 || al < 0)
			return fail(p, "presubtract operation");
		a->rgb_addr.srcp_op = (uint16_t)r;
		a->alpha_addr.srcp_op = (uint16_t)al;
		p->i++;
	}
	if (!parse_unit(p, true) || !parse_unit(p, false))
		return false;
	if (!strcmp(peek(p), ":")) {
		p->i++;
		const char *t = peek(p);
		bool on = !strncmp(t, "result=", 7);
		if (!on && strncmp(t, "noresult=", 9))
			return fail(p, "result=CHANNEL<cmp>");
		t += on ? 7 : 9;
		int c = find_name(r500_asm_cmp_names, 4, t + 1);
		if ((*t != 'r' && *t != 'a') || c < 0)
			return fail(p, "r or a followed by a compare code");
		a->alu_wmask = on;
		p->out->cmn.alu_result_sel = *t == 'a';
		p->out->cmn.alu_result_op = (uint16_t)c;
		p->i++;
	}
	return true;
}

static bool parse_tex_swz(const char *s, uint16_t swz[4], const char **end)
{
	for (int i = 0; i < 4; i++) {
		const char *c = s[i] ? strchr("rgba", s[i]) : NULL;
		if (!c)
			return false;
		swz[i] = (uint16_t)(c - "rgba");
	}
	*end = s + 4;
	return true;
}

/* NAME=tN.swzl for the DXDY word */
static bool parse_tex_grad(const char *s, uint16_t *addr, uint16_t *rel, uint16_t swz[4])
{
	const char *e;
	return parse_reg(s, 't', 127, addr, rel, &e) && *e == '.' && parse_tex_swz(e + 1, swz, &e) && !*e;
}

static bool parse_tex(struct parser *p)
{
	struct r500_tex *t = &p->out->tex;
	struct r500_cmn *c = &p->out->cmn;
	const char *e;
	unsigned mask, id;
	if (!parse_pred(p, &c->rgb_pred_sel, &c->rgb_pred_inv))
		return false;
	int inst = field_value("INST", R500_TYPE_TEX, peek(p));
	if (inst < 0)
		return fail(p, "texture instruction");
	t->inst = (uint16_t)inst;
	p->i++;
	if (!parse_reg(peek(p), 't', 127, &t->dst_addr, &t->dst_addr_rel, &e) || *e != '.' ||
	    !parse_mask(e + 1, "rgba", &mask))
		return fail(p, "destination tN.mask");
	c->rgb_wmask = mask & 7;
	c->alpha_wmask = (uint16_t)(mask >> 3);
	p->i++;
	if (!expect(p, "="))
		return false;
	const char *s = peek(p);
	if (strncmp(s, "tex", 3) || !parse_uint(s + 3, 15, &id, &s) || *s++ != '(' ||
	    !parse_reg(s, 't', 127, &t->src_addr, &t->src_addr_rel, &s) || *s++ != '.' ||
	    !parse_tex_swz(s, t->src_swz, &s) || strncmp(s, ").", 2) ||
	    !parse_tex_swz(s + 2, t->dst_swz, &s) || *s)
		return fail(p, "texN(tN.swzl).swzl");
	t->tex_id = (uint16_t)id;
	p->i++;
	for (; p->i < p->n; p->i++) {
		s = peek(p);
		if (!strcmp(s, "acquire"))
			t->sem_acquire = 1;
		else if (!strcmp(s, "ignore_uncovered"))
			t->ignore_uncovered = 1;
		else if (!strcmp(s, "unscaled"))
			t->unscaled = 1;
		else if (!strncmp(s, "dx=", 3) && parse_tex_grad(s + 3, &t->dx_addr, &t->dx_addr_rel, t->dx_swz))
			;
		else if (!strncmp(s, "dy=", 3) && parse_tex_grad(s + 3, &t->dy_addr, &t->dy_addr_rel, t->dy_swz))
			;
		else
			return fail(p, "texture option");
	}
	return true;
}

static bool parse_fc(struct parser *p)
{
	struct r500_fc *f = &p->out->fc;
	struct r500_cmn *c = &p->out->cmn;
	if (!parse_pred(p, &c->rgb_pred_sel, &c->rgb_pred_inv))
		return false;
	int op = field_value("OP", R500_TYPE_FC, peek(p));
	if (op < 0)
		return fail(p, "FC operation");
	f->op = (uint16_t)op;
	p->i++;
	for (; p->i < p->n; p->i++) {
		const char *s = peek(p);
		const char *eq = strchr(s, '=');
		unsigned v;
		int nv;
		if (!strcmp(s, "any"))
			f->jump_any = 1;
		else if (!strcmp(s, "else"))
			f->b_else = 1;
		else if (!strcmp(s, "ignore_uncovered"))
			f->ignore_uncovered = 1;
		else if (!strcmp(s, "global"))
			f->jump_global = 1;
		else if (!eq)
			return fail(p, "FC option");
		else if (!strncmp(s, "func=", 5) && parse_uint(eq + 1, 255, &v, NULL))
			f->jump_func = (uint16_t)v;
		else if (!strncmp(s, "pop_cnt=", 8) && parse_uint(eq + 1, 31, &v, NULL))
			f->b_pop_cnt = (uint16_t)v;
		else if (!strncmp(s, "bool=", 5) && parse_uint(eq + 1, 31, &v, NULL))
			f->bool_addr = (uint16_t)v;
		else if (!strncmp(s, "int=", 4) && parse_uint(eq + 1, 31, &v, NULL))
			f->int_addr = (uint16_t)v;
		else if (!strncmp(s, "addr=", 5) && parse_uint(eq + 1, 511, &v, NULL))
			f->jump_addr = (uint16_t)v;
		else if (!strncmp(s, "a_op=", 5) && (nv = field_value("A_OP", R500_TYPE_FC, eq + 1)) >= 0)
			f->a_op = (uint16_t)nv;
		else if (!strncmp(s, "b_op0=", 6) && (nv = field_value("B_OP0", R500_TYPE_FC, eq + 1)) >= 0)
			f->b_op0 = (uint16_t)nv;
		else if (!strncmp(s, "b_op1=", 6) && (nv = field_value("B_OP1", R500_TYPE_FC, eq + 1)) >= 0)
			f->b_op1 = (uint16_t)nv;
		else
			return fail(p, "FC option");
	}
	return true;
}

bool r500_asm_inst(const char *text, struct r500_inst *out, char *why, size_t why_len)
{
	char buf[MAX_TEXT];
	struct parser p = { .out = out, .why = why, .why_len = why_len };
	memset(out, 0, sizeof *out);
	if (!text || strlen(text) >= sizeof buf)
		return r500_why(why, why_len, "instruction text missing or longer than %d", MAX_TEXT - 1);
	strcpy(buf, text);
	for (char *s = buf; *s;) {
		if (*s == ' ' || *s == '\t' || *s == '\n') {
			*s++ = 0;
			continue;
		}
		if (p.n == MAX_TOKENS)
			return r500_why(why, why_len, "more than %d tokens", MAX_TOKENS);
		p.tok[p.n++] = s;
		s += strcspn(s, " \t\n");
	}
	int type = find_name(r500_fields[0].value_names, 4, peek(&p));
	if (type < 0)
		return fail(&p, "alu, out, tex or fc");
	out->cmn.type = (uint16_t)type;
	p.i++;
	while (p.i < p.n && parse_flag(&p))
		;
	bool ok = type == R500_TYPE_TEX ? parse_tex(&p) : type == R500_TYPE_FC ? parse_fc(&p) : parse_alu(&p);
	if (ok && p.i < p.n)
		return fail(&p, "end of instruction");
	return ok;
}
