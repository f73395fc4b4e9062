/* A GL driver's part, played against an installed libuscc: compile a
 * fragment shader through the shader cache, then print the register
 * writes an r300-family driver emits for it on an R500 (in the order of
 * Mesa's per-shader state block), the constant uploads, the rasterizer's
 * input mapping, and whether early depth testing must be off.
 *
 *   driver SHADER.frag [CACHE_DIR]
 *
 * Built against the installed prefix: see examples/driver/Makefile
 * (pkg-config) and CMakeLists.txt (find_package). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uscc.h>

/* Register offsets and fields, as Mesa's r300 driver names them. */
enum {
	GA_US_VECTOR_INDEX = 0x4250,
	GA_US_VECTOR_DATA = 0x4254,
	RS_IP_0 = 0x4074,
	RS_INST_COUNT = 0x4304,
	RS_INST_0 = 0x4320,
	US_CONFIG = 0x4600,
	US_PIXSIZE = 0x4604,
	US_FC_BOOL_CONST = 0x4620,
	US_FC_CTRL = 0x4624,
	US_CODE_ADDR = 0x4630,
	US_CODE_RANGE = 0x4634,
	US_CODE_OFFSET = 0x4638,
	US_W_FMT = 0x46B4,
	US_FC_INT_CONST_0 = 0x4C00,
};

enum {
	ZERO_TIMES_ANYTHING_EQUALS_ZERO = 1u << 1,
	FULL_FC_EN = 1u << 31,
	VECTOR_TYPE_CONST = 1u << 16,
	W_FMT_W24 = 1u,           /* W_SRC 0: depth from the shader */
	RS_PTR_ZERO = 62, RS_PTR_ONE = 63,
};

static void reg(const char *name, unsigned offset, uint32_t value, const char *why)
{
	printf("%-20s 0x%04X = 0x%08X%s%s\n", name, offset, (unsigned)value, why ? "  # " : "",
	       why ? why : "");
}

static void data_port(const uint32_t *words, int n)
{
	for (int i = 0; i < n; i++)
		printf("%s%08X%s", i % 6 == 0 ? "  GA_US_VECTOR_DATA  " : " ", (unsigned)words[i],
		       i % 6 == 5 || i == n - 1 ? "\n" : "");
}

static uint32_t float_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		char *bigger = realloc(buf, cap * 2);
		if (!bigger) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = bigger;
		cap *= 2;
	}
	if (ferror(f)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

/* The per-shader state: flow control, code window, code upload. */
static void emit_program(const struct uscc_container *c)
{
	struct uscc_flow_info fc;
	uscc_container_flow(c, &fc);
	int n;
	const uint32_t *code = uscc_container_code(c, &n);
	reg("US_CONFIG", US_CONFIG, ZERO_TIMES_ANYTHING_EQUALS_ZERO, "0 * x = 0, as Mesa sets it");
	reg("US_PIXSIZE", US_PIXSIZE, (uint32_t)fc.pixsize, "highest temporary used");
	reg("US_FC_CTRL", US_FC_CTRL, fc.uses_fc ? FULL_FC_EN : 0,
	    fc.uses_fc ? "flow control: full mode" : "no flow control");
	if (fc.uses_fc)
		reg("US_FC_BOOL_CONST", US_FC_BOOL_CONST, fc.bool_const, NULL);
	for (int i = 0; i < 32; i++)
		if (fc.int_const_used & (1u << i)) {
			char name[32];
			snprintf(name, sizeof name, "US_FC_INT_CONST_%d", i);
			reg(name, US_FC_INT_CONST_0 + 4u * (unsigned)i, fc.int_const[i],
			    "count | init << 8 | step << 16");
		}
	uint32_t last = (uint32_t)(n - 1);
	reg("US_CODE_RANGE", US_CODE_RANGE, 0u | last << 16, "window at slot 0");
	reg("US_CODE_OFFSET", US_CODE_OFFSET, 0, NULL);
	reg("US_CODE_ADDR", US_CODE_ADDR, 0u | last << 16, "start 0, end last slot");
	reg("GA_US_VECTOR_INDEX", GA_US_VECTOR_INDEX, 0, "instructions from slot 0");
	data_port(code, n * 6);
}

/* The constant file as the driver keeps it: the compile-time constants,
 * each uniform at its slot and components (its initializer or zeros: a
 * real driver puts the application's values there), then the constant
 * program, run whenever a uniform changes, fills the slots it computes.
 * Each slot is uploaded once: narrow uniforms share slots. */
static int emit_constants(const struct uscc_container *c)
{
	int n = uscc_container_num_const_slots(c);
	float (*image)[4] = calloc((size_t)n + 1, sizeof *image);
	char (*what)[96] = calloc((size_t)n + 1, sizeof *what);
	if (!image || !what) {
		free(image);
		free(what);
		return -1;
	}
	for (int s = 0; s < n; s++)
		if (uscc_container_constant(c, s, image[s]))
			snprintf(what[s], sizeof what[s], "immediate");
	for (int i = 0; i < uscc_container_num_uniforms(c); i++) {
		struct uscc_uniform_info u;
		if (!uscc_container_uniform(c, i, &u) || u.slot < 0 || u.slot >= n)
			continue;
		for (int j = 0; u.swizzle[j] && j < 4; j++) {
			int comp = u.swizzle[j] == 'w' ? 3 : u.swizzle[j] - 'x';
			image[u.slot][comp] = u.init ? u.init[j] : 0.0f;
		}
		size_t len = strlen(what[u.slot]);
		snprintf(what[u.slot] + len, sizeof what[u.slot] - len, "%s%s[%d].%s",
			 len ? ", " : "uniform ", u.name, u.element, u.swizzle);
	}
	int ninst, nout;
	uscc_container_constant_program(c, &ninst, &nout);
	if (nout) {
		printf("# constant program: %d instructions fill %d values (run on the CPU "
		       "whenever a uniform changes)\n", ninst, nout);
		if (uscc_container_run_constant_program(c, image, n) != USCC_OK) {
			free(image);
			free(what);
			return -1;
		}
	}
	for (int s = 0; s < n; s++) {
		reg("GA_US_VECTOR_INDEX", GA_US_VECTOR_INDEX, VECTOR_TYPE_CONST | (uint32_t)s,
		    what[s][0] ? what[s] : "computed by the constant program");
		uint32_t w[4] = { float_bits(image[s][0]), float_bits(image[s][1]),
				  float_bits(image[s][2]), float_bits(image[s][3]) };
		data_port(w, 4);
	}
	free(image);
	free(what);
	return 0;
}

/* The rasterizer writes each input into its temporary before the program
 * runs: input k comes from vertex output packet entry k (this driver's
 * choice), components the shader does not read are 0 (xyz) or 1 (w). */
static void emit_inputs(const struct uscc_container *c)
{
	int n = uscc_container_num_inputs(c);
	for (int k = 0; k < n; k++) {
		struct uscc_input_info in;
		if (!uscc_container_input(c, k, &in))
			continue;
		uint32_t ip = 0;
		for (int comp = 0; comp < 4; comp++) {
			const char *names = "xyzw";
			uint32_t ptr = strchr(in.components, names[comp])
					       ? (uint32_t)(4 * k + comp)
					       : comp == 3 ? RS_PTR_ONE : RS_PTR_ZERO;
			ip |= ptr << (6 * comp);
		}
		char name[32], why[160];
		snprintf(name, sizeof name, "RS_IP_%d", k);
		snprintf(why, sizeof why, "%s.%s", in.name, in.components);
		reg(name, RS_IP_0 + 4u * (unsigned)k, ip, why);
		snprintf(name, sizeof name, "RS_INST_%d", k);
		snprintf(why, sizeof why, "-> t%d", in.temp);
		reg(name, RS_INST_0 + 4u * (unsigned)k,
		    (uint32_t)k | 1u << 4 | (uint32_t)in.temp << 5, why);
	}
	reg("RS_INST_COUNT", RS_INST_COUNT, n > 0 ? (uint32_t)(n - 1) : 0, "count - 1");
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s SHADER.frag [CACHE_DIR]\n", argv[0]);
		return 2;
	}
	size_t len;
	char *src = read_file(argv[1], &len);
	if (!src) {
		fprintf(stderr, "%s: cannot read\n", argv[1]);
		return 2;
	}
	printf("# libuscc %s (built against %s)\n", uscc_version(), USCC_VERSION_STRING);
	struct uscc_options *o = uscc_options_create(NULL);
	struct uscc_cache *cache = NULL;
	if (!o || uscc_options_set_filename(o, argv[1]) != USCC_OK ||
	    uscc_cache_create(NULL, argc == 3 ? argv[2] : NULL, &cache) != USCC_OK) {
		fprintf(stderr, "cannot set up the compiler\n");
		return 2;
	}
	struct uscc_result *r = NULL;
	enum uscc_status st = uscc_cache_compile(cache, o, src, len, &r);
	free(src);
	int status = 1;
	if (st != USCC_OK) {
		fprintf(stderr, "%s", r ? uscc_result_diagnostics(r) : "out of memory\n");
		goto out;
	}
	uint64_t hits, misses;
	uscc_cache_counts(cache, &hits, &misses);
	printf("# cache: %llu hit(s), %llu miss(es)\n", (unsigned long long)hits,
	       (unsigned long long)misses);
	size_t size;
	const void *bin = uscc_result_data(r, &size);
	struct uscc_container *c;
	char err[256];
	if (uscc_container_open(NULL, bin, size, &c, err, sizeof err) != USCC_OK) {
		fprintf(stderr, "container: %s\n", err);
		goto out;
	}
	emit_program(c);
	if (emit_constants(c) != 0) {
		fprintf(stderr, "driver: out of memory, or the constant program failed\n");
		uscc_container_destroy(c);
		goto out;
	}
	emit_inputs(c);
	struct uscc_program_info pi;
	uscc_container_program_info(c, &pi);
	reg("US_W_FMT", US_W_FMT, pi.writes_depth ? W_FMT_W24 : 0,
	    pi.writes_depth ? "depth from the shader" : "no depth output");
	printf("# KIL: %s; depth write: %s; early Z: %s\n", pi.uses_kill ? "yes" : "no",
	       pi.writes_depth ? "yes" : "no",
	       pi.uses_kill || pi.writes_depth ? "must be off" : "may stay on");
	uscc_container_destroy(c);
	status = 0;
out:
	uscc_result_destroy(r);
	uscc_cache_destroy(cache);
	uscc_options_destroy(o);
	return status;
}
