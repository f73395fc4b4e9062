/* Helpers shared by the libFuzzer targets (fuzz_util.h). */
#include "fuzz_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uscc.h"

/* Reads land here so that the compiler cannot drop them. */
static volatile size_t sink;

void fuzz_bug(const char *what, const char *detail)
{
	fprintf(stderr, "uscc fuzz: BUG: %s\n%s\n", what, detail ? detail : "");
	abort();
}

char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	if (size)
		memcpy(s, data, size);
	s[size] = 0;
	return s;
}

static size_t str_len(const char *s)
{
	return s ? strlen(s) : 0;
}

static void walk_tables(const struct uscc_container *c)
{
	size_t acc = 0;
	for (int i = -1; i <= uscc_container_num_uniforms(c); i++) {
		struct uscc_uniform_info u;
		if (!uscc_container_uniform(c, i, &u))
			continue;
		acc += str_len(u.name) + str_len(u.type) + str_len(u.swizzle);
		acc += (size_t)(u.array_len + u.element + u.slot);
		if (u.init)
			acc += (size_t)(u.init[0] + u.init[1] + u.init[2] + u.init[3] != 0);
	}
	for (int i = -1; i <= uscc_container_num_samplers(c); i++) {
		struct uscc_sampler_info s;
		if (uscc_container_sampler(c, i, &s))
			acc += str_len(s.name) + str_len(s.target) + (size_t)s.unit + s.shadow;
	}
	for (int i = -1; i <= uscc_container_num_inputs(c); i++) {
		struct uscc_input_info in;
		if (uscc_container_input(c, i, &in))
			acc += str_len(in.name) + str_len(in.components) + (size_t)in.temp;
	}
	for (int i = -1; i <= uscc_container_num_outputs(c); i++) {
		struct uscc_output_info o;
		if (uscc_container_output(c, i, &o))
			acc += str_len(o.name) + (size_t)o.target;
	}
	sink += acc;
}

bool fuzz_walk_container(const void *data, size_t size, bool must_open)
{
	struct uscc_container *c = NULL;
	char err[256] = "";
	enum uscc_status st = uscc_container_open(NULL, data, size, &c, err, sizeof err);
	if (st != USCC_OK) {
		if (c)
			fuzz_bug("uscc_container_open failed but gave a container", err);
		if (must_open)
			fuzz_bug("a compiled container does not open", err);
		if (!memchr(err, 0, sizeof err) || !err[0])
			fuzz_bug("uscc_container_open failed without a message", NULL);
		return false;
	}
	int ninst = 0;
	const uint32_t *code = uscc_container_code(c, &ninst);
	size_t acc = 0;
	for (int i = 0; i < ninst * 6; i++)
		acc += code[i];
	int nslots = uscc_container_num_const_slots(c);
	for (int s = -1; s <= nslots; s++) {
		float v[4];
		if (uscc_container_constant(c, s, v))
			acc += (size_t)(v[0] + v[1] + v[2] + v[3] != 0);
	}
	walk_tables(c);
	struct uscc_flow_info flow;
	uscc_container_flow(c, &flow);
	struct uscc_stats stats;
	uscc_container_stats(c, &stats);
	acc += flow.bool_const + (size_t)flow.pixsize + (size_t)stats.instructions;
	/* the constant program over a constant file of garbage-free values:
	 * it must run (the container was checked) and touch only its slots */
	int cp_inst, cp_out;
	uscc_container_constant_program(c, &cp_inst, &cp_out);
	float image[257][4];
	for (int s = 0; s < 257; s++)
		for (int k = 0; k < 4; k++)
			image[s][k] = (float)(s * 4 + k) * 0.125f - 3.0f;
	if (nslots < 0 || nslots > 256 ||
	    uscc_container_run_constant_program(c, image, nslots) != USCC_OK)
		fuzz_bug("the constant program of an open container does not run", NULL);
	if (image[256][0] != 256 * 0.5f - 3.0f)
		fuzz_bug("the constant program wrote past the constant slots", NULL);
	if (nslots > 0 && uscc_container_run_constant_program(c, image, nslots - 1) !=
			  USCC_USAGE_ERROR)
		fuzz_bug("the constant program ran on too few slots", NULL);
	acc += (size_t)cp_inst + (size_t)cp_out + (size_t)(image[0][0] != 0.0f);
	const char *json = uscc_container_json(c);
	if (!json)
		fuzz_bug("an open container has no JSON", NULL);
	acc += strlen(json);
	const char *dis = uscc_container_disasm(c);
	acc += str_len(dis);
	if (dis && uscc_container_disasm(c) != dis)
		fuzz_bug("uscc_container_disasm gave a second text", NULL);
	sink += acc;
	uscc_container_destroy(c);
	return true;
}

/* A diagnostic line (a quoted source line starts with a space) whose
 * message says the compiler broke its own invariants. */
static bool internal_error(const char *diag)
{
	for (const char *line = diag; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[512];
		snprintf(buf, sizeof buf, "%.*s", (int)len, line);
		const char *msg = strstr(buf, "error: ");
		if (*line != ' ' && msg &&
		    (!strncmp(msg + 7, "internal error", 14) ||
		     !strncmp(msg + 7, "IR invalid after pass", 21)))
			return true;
		line += len + (nl != NULL);
	}
	return false;
}

void fuzz_check_result(const struct uscc_result *r, enum uscc_status st,
		       enum uscc_action action)
{
	if (uscc_result_status(r) != st)
		fuzz_bug("uscc_run returned another status than its result holds", NULL);
	const char *diag = uscc_result_diagnostics(r);
	if (!diag)
		fuzz_bug("no diagnostics text", NULL);
	if (internal_error(diag))
		fuzz_bug("internal compiler error", diag);
	size_t size = 0;
	const char *data = uscc_result_data(r, &size);
	if (st != USCC_OK) {
		if (data || size)
			fuzz_bug("a failed run has output", diag);
		return;
	}
	if (!data)
		fuzz_bug("a successful run has no output", diag);
	if (action == USCC_ACTION_COMPILE) {
		fuzz_walk_container(data, size, true);
	} else if (strlen(data) != size) {
		fuzz_bug("text output size differs from its length", diag);
	}
	struct uscc_stats stats;
	const char *json = uscc_result_stats_json(r);
	bool has = uscc_result_stats(r, &stats);
	if (has != (json != NULL))
		fuzz_bug("stats and stats JSON disagree", diag);
	if (action == USCC_ACTION_COMPILE && !has)
		fuzz_bug("a compiled program has no stats", diag);
}

void fuzz_tgsi_input(const uint8_t *data, size_t size, enum uscc_language lang,
		     const char *filename)
{
	static const enum uscc_action actions[] = {
		USCC_ACTION_COMPILE, USCC_ACTION_ASSEMBLY, USCC_ACTION_CHECK, USCC_ACTION_DUMP_IR,
		USCC_ACTION_DUMP_IR_ALL, USCC_ACTION_DUMP_BACKEND, USCC_ACTION_PREPROCESS,
	};
	enum { NACTIONS = sizeof actions / sizeof *actions };
	if (size < 1)
		return;
	enum uscc_action action = actions[data[0] % NACTIONS];
	int opt = (data[0] / NACTIONS) % 2 ? 0 : 2;
	struct uscc_options *o = uscc_options_create(NULL);
	if (!o)
		return;
	if (uscc_options_set_language(o, lang) || uscc_options_set_opt_level(o, opt) ||
	    uscc_options_set_filename(o, filename))
		fuzz_bug("a valid option was refused", NULL);
	struct uscc_result *r = NULL;
	enum uscc_status st = uscc_run(o, action, (const char *)data + 1, size - 1, &r);
	if (r) {
		if (action == USCC_ACTION_PREPROCESS && st != USCC_USAGE_ERROR)
			fuzz_bug("-E on TGSI is not a usage error", uscc_result_diagnostics(r));
		fuzz_check_result(r, st, action);
		uscc_result_destroy(r);
	} else if (st != USCC_OUT_OF_MEMORY) {
		fuzz_bug("uscc_run gave no result but did not run out of memory", NULL);
	}
	uscc_options_destroy(o);
}
