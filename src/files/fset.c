/*
 * fset.c - the data-set shapes and their deterministic builder (fset.h).
 *
 * The shapes table is the one place the sets' figures live; docs/suites.md
 * repeats them with their sources.  Sizes are drawn class by class
 * (log-uniform between the class bounds) and then normalised to the
 * scaled total, so a small --scale keeps the mix of small and large files.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files/fset.h"

#define KB 1024ull
#define MB (1024ull * KB)
#define GB (1024ull * MB)

static const struct fset_shape fset_shapes[] = {
    {"asssd-iso",
     "AS SSD copy: ISO (two large files)",
     2,
     1,
     1000 * 1000 * 1000ull,
     {{1, 500 * MB, 500 * MB}},
     "two large files of about 500 MB copied as a folder (UserBenchmark's description of "
     "AS SSD's ISO copy)",
     false},
    {"asssd-program",
     "AS SSD copy: Program (many small files)",
     3000,
     120,
     600 * MB,
     {{60, 1 * KB, 32 * KB}, {30, 32 * KB, 1 * MB}, {10, 1 * MB, 16 * MB}},
     "a program folder of many small files (AS SSD's description); count and size estimated",
     true},
    {"asssd-game",
     "AS SSD copy: Game (small and large files)",
     800,
     30,
     1300 * MB,
     {{70, 4 * KB, 256 * KB}, {25, 256 * KB, 16 * MB}, {5, 16 * MB, 200 * MB}},
     "a game folder of small and large files (AS SSD's description); count and size estimated",
     true},
    {"fc-iso",
     "FC-Test ISO template (three large files)",
     3,
     1,
     1600 * MB,
     {{1, 400 * MB, 700 * MB}},
     "three large files totalling 1.6 GB (bit-tech's description of its FC-Test runs)",
     false},
    {"fc-mp3",
     "FC-Test MP3 template (music files)",
     270,
     10,
     1014 * MB,
     {{1, 2 * MB, 8 * MB}},
     "270 files totalling 0.99 GB (bit-tech); folder count estimated",
     true},
    {"fc-prog",
     "FC-Test PROG template (an installed program)",
     2500,
     200,
     1100 * MB,
     {{60, 1 * KB, 64 * KB}, {35, 64 * KB, 2 * MB}, {5, 2 * MB, 64 * MB}},
     "an installed program folder (X-bit labs' FC-Test templates); figures estimated",
     true},
    {"fc-win",
     "FC-Test WIN template (an operating system folder)",
     9000,
     700,
     1200 * MB,
     {{75, 1 * KB, 64 * KB}, {23, 64 * KB, 2 * MB}, {2, 2 * MB, 32 * MB}},
     "the Windows folder (X-bit labs' FC-Test templates); figures estimated",
     true},
    {"untar",
     "Source tree tarball (42,588 files in 6,246 folders)",
     42588,
     6246,
     2300 * MB,
     {{70, 100, 16 * KB}, {27, 16 * KB, 256 * KB}, {3, 256 * KB, 8 * MB}},
     "a 2.3 GB archive of 42,588 files in 6,246 folders extracted in the reviews; size "
     "classes estimated",
     true},
    {"vm-disk",
     "VM disk image (sparse, 16 GiB virtual)",
     1,
     1,
     16 * GB,
     {{1, 1 * MB, 64 * MB}},
     "a thin VM disk: allocated extents of 1-64 MiB covering about 40 % of the virtual size; "
     "estimated (the reviews give clone times, not the image's layout)",
     true},
    {"game-folder",
     "Game installation (small files, then large assets)",
     2400,
     90,
     6 * GB,
     {{85, 1 * KB, 256 * KB}, {12, 256 * KB, 32 * MB}, {3, 256 * MB, 1 * GB}},
     "an installed game: scripts and configuration then packed assets; estimated",
     true},
};

#define FSET_NSHAPES (sizeof(fset_shapes) / sizeof(fset_shapes[0]))

const struct fset_shape *fset_shape_at(size_t i)
{
	return i < FSET_NSHAPES ? &fset_shapes[i] : NULL;
}

const struct fset_shape *fset_shape_find(const char *name)
{
	for (size_t i = 0; i < FSET_NSHAPES; i++)
		if (!strcmp(fset_shapes[i].name, name))
			return &fset_shapes[i];
	return NULL;
}

/* splitmix64's output function: a bijective 64-bit mix. */
static uint64_t fset_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t fset_rand(uint64_t *state)
{
	*state += 0x9e3779b97f4a7c15ull;
	return fset_mix(*state);
}

/* Uniform double in [0, 1). */
static double fset_unit(uint64_t *st)
{
	return (double)(fset_rand(st) >> 11) * 0x1.0p-53;
}

void fset_free(struct fset *s)
{
	for (size_t i = 0; s->files && i < s->nfiles; i++)
		free(s->files[i].path);
	for (size_t i = 0; s->dirs && i < s->ndirs; i++)
		free(s->dirs[i]);
	free(s->files);
	free(s->dirs);
	memset(s, 0, sizeof(*s));
}

static uint64_t fset_draw_size(const struct fset_shape *sh, uint64_t *st)
{
	unsigned wsum = 0, pick;
	const struct fset_class *c = &sh->cls[0];

	for (int k = 0; k < FSET_CLASSES; k++)
		wsum += sh->cls[k].weight;
	pick = (unsigned)(fset_rand(st) % wsum);
	for (int k = 0; k < FSET_CLASSES; k++) {
		if (pick < sh->cls[k].weight) {
			c = &sh->cls[k];
			break;
		}
		pick -= sh->cls[k].weight;
	}
	if (c->max <= c->min)
		return c->min;
	double lo = log((double)c->min), hi = log((double)c->max);
	return (uint64_t)exp(lo + (hi - lo) * fset_unit(st));
}

int fset_build(const struct fset_shape *sh, double scale, uint64_t seed, unsigned compress,
               struct fset *out)
{
	uint64_t st = seed ^ fset_mix((uint64_t)(uintptr_t)sh->name[0] * 131 + strlen(sh->name));
	size_t nf, nd;
	double drawn = 0;

	memset(out, 0, sizeof(*out));
	if (!(scale > 0 && scale <= 1) || compress > 100)
		return -EINVAL;
	for (const char *p = sh->name; *p; p++)
		st = fset_mix(st ^ (uint64_t)(unsigned char)*p);
	nf = (size_t)ceil((double)sh->files * scale);
	if (nf < (sh->files < 2 ? sh->files : 2))
		nf = sh->files < 2 ? sh->files : 2;
	nd = (size_t)ceil((double)sh->dirs * scale);
	nd = nd < 1 ? 1 : nd;
	if (nd > nf && nf > 0)
		nd = nf; /* no empty folders at tiny scales */
	out->shape = sh;
	out->compress = compress;
	out->files = calloc(nf, sizeof(*out->files));
	out->dirs = calloc(nd, sizeof(*out->dirs));
	if (!out->files || !out->dirs) {
		fset_free(out);
		return -ENOMEM;
	}
	out->nfiles = nf;
	out->ndirs = nd;
	out->dirs[0] = strdup("");
	if (!out->dirs[0])
		goto nomem;
	for (size_t j = 1; j < nd; j++) {
		const char *parent = out->dirs[fset_rand(&st) % j];
		if (asprintf(&out->dirs[j], "%s%sd%05zu", parent, *parent ? "/" : "", j) < 0) {
			out->dirs[j] = NULL;
			goto nomem;
		}
	}
	for (size_t i = 0; i < nf; i++) {
		struct fset_file *f = &out->files[i];
		const char *dir = out->dirs[nd > 1 ? fset_rand(&st) % nd : 0];
		f->size = fset_draw_size(sh, &st);
		f->key = fset_rand(&st);
		drawn += (double)f->size;
		if (asprintf(&f->path, "%s%sf%06zu.bin", dir, *dir ? "/" : "", i) < 0) {
			f->path = NULL;
			goto nomem;
		}
		f->depth = 0;
		for (const char *p = f->path; *p; p++)
			f->depth += *p == '/';
	}
	/* Normalise to the scaled total, the last file taking the rounding. */
	double want = (double)sh->total * scale;
	uint64_t sum = 0;
	for (size_t i = 0; i < nf; i++) {
		struct fset_file *f = &out->files[i];
		if (i + 1 < nf) {
			f->size = (uint64_t)((double)f->size * want / drawn);
			f->size = f->size ? f->size : 1;
		} else {
			uint64_t w = (uint64_t)want;
			f->size = w > sum ? w - sum : 1;
		}
		sum += f->size;
	}
	out->bytes = sum;
	return 0;
nomem:
	fset_free(out);
	return -ENOMEM;
}

void fset_fill(const struct fset *s, const struct fset_file *f, uint64_t off, void *buf, size_t len)
{
	unsigned char *b = buf;
	uint64_t start = off, zero_from = 4096 - (uint64_t)s->compress * 4096 / 100;
	size_t left = len;

	while (left) {
		uint64_t w = off / 8, in = off % 8;
		uint64_t v = fset_mix(f->key + w * 0x9e3779b97f4a7c15ull);
		if (in == 0 && left >= 8) {
			memcpy(b, &v,
			       8); /* byte order of the host; the data is only ever compared here */
			b += 8, off += 8, left -= 8;
			continue;
		}
		size_t n = (size_t)(8 - in) < left ? (size_t)(8 - in) : left;
		for (size_t k = 0; k < n; k++)
			b[k] = (unsigned char)(v >> (8 * (in + k)));
		b += n, off += n, left -= n;
	}
	if (zero_from >= 4096)
		return;
	/* Zero the tail [zero_from, 4096) of every 4 KiB block the range touches. */
	b = buf;
	for (uint64_t blk = start / 4096 * 4096; blk < start + len; blk += 4096) {
		uint64_t z0 = blk + zero_from, z1 = blk + 4096;
		z0 = z0 < start ? start : z0;
		z1 = z1 > start + len ? start + len : z1;
		if (z0 < z1)
			memset(b + (z0 - start), 0, (size_t)(z1 - z0));
	}
}
