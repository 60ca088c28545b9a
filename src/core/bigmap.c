/*
 * bigmap.c - large zeroed mappings a process reuses (bigmap.h).
 *
 * Why: the first write to a page of a fresh anonymous mapping costs a page
 * fault and the kernel's clearing of the page, and on a virtual machine
 * whose host takes back the memory its guest frees (free page reporting,
 * a balloon) a second fault in the host as well.  Measured on a 2-core
 * virtual machine: 0.3-1 GB/s for the first touch of memory freed a few
 * seconds earlier, 6 GB/s for memory freed just before, 40 GB/s for
 * rewriting pages already resident.  A simulated drive's tables are
 * hundreds of megabytes, written at random, so a process that builds one
 * array after another (a sweep's or advise's worker) spent much of each
 * point faulting its tables in.
 *
 * Design: rl_bigmap_put() does not unmap; it keeps the mapping on an idle
 * list with the count of its resident bytes (mincore).  rl_bigmap_get()
 * takes the most recently kept mapping of exactly the length asked for
 * (a sweep's points use the same drives again and again) and clears only
 * its resident pages, again found with mincore: a page never touched still
 * reads as zeros.  Anything else is a new mapping.  The idle list holds at
 * most BIGMAP_SLOTS mappings and an eighth of the machine's memory (at
 * most BIGMAP_IDLE_CAP) of resident bytes; the oldest are unmapped first.
 * A lock guards the list: targets may be opened and closed on any thread.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/bigmap.h"
#include "core/lock.h"

#define BIGMAP_SLOTS    64
#define BIGMAP_IDLE_CAP (4ull << 30)

struct bigmap_slot {
	void *p;
	size_t len;
	size_t resident;
};

/* the idle list, oldest first, and its resident bytes */
static struct rl_mutex bigmap_lock = {PTHREAD_MUTEX_INITIALIZER};
static struct bigmap_slot bigmap_slot[BIGMAP_SLOTS] RL_GUARDED_BY(bigmap_lock);
static unsigned bigmap_n RL_GUARDED_BY(bigmap_lock);
static size_t bigmap_bytes RL_GUARDED_BY(bigmap_lock);

static size_t bigmap_page(void)
{
	long ps = sysconf(_SC_PAGESIZE);

	return ps > 0 ? (size_t)ps : 4096;
}

static size_t bigmap_cap(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	uint64_t mem = pages > 0 ? (uint64_t)pages * bigmap_page() : 0;

	return mem / 8 < BIGMAP_IDLE_CAP ? (size_t)(mem / 8) : (size_t)BIGMAP_IDLE_CAP;
}

/*
 * Does the pagemap entry @e say the page holds data of ours?  Present and
 * mapped by this process alone: a page never written that was only read
 * is mapped to the kernel's shared zero page, which mincore counts as
 * resident but needs no clearing (and clearing it would allocate it).
 */
static bool bigmap_ours(uint64_t e)
{
	return (e >> 63 & 1) && (e >> 56 & 1);
}

/*
 * Call @fn on each run of pages of [p, p + len) that hold data, read from
 * /proc/self/pagemap (mincore where that cannot be read, which also counts
 * pages that only map the zero page); returns their bytes, or SIZE_MAX
 * when neither can say (then @fn is not called).
 */
static size_t bigmap_resident(void *p, size_t len, void (*fn)(uint8_t *at, size_t n))
{
	enum { CHUNK = 65536 };
	size_t ps = bigmap_page(), npages = (len + ps - 1) / ps, total = 0, run = 0;
	uint64_t *ent = malloc(CHUNK * sizeof(*ent));
	unsigned char *vec = NULL;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);

	if (!ent)
		goto fail;
	if (fd < 0 && (!(vec = malloc(npages)) || mincore(p, len, vec)))
		goto fail;
	for (size_t i0 = 0; i0 < npages; i0 += CHUNK) {
		size_t k = npages - i0 < CHUNK ? npages - i0 : CHUNK;
		if (fd >= 0) {
			off_t at = (off_t)(((uintptr_t)p / ps + i0) * sizeof(*ent));
			if (pread(fd, ent, k * sizeof(*ent), at) != (ssize_t)(k * sizeof(*ent)))
				goto fail;
		}
		for (size_t j = 0; j <= k; j++) {
			bool data = j < k && (fd >= 0 ? bigmap_ours(ent[j]) : (vec[i0 + j] & 1));
			size_t i = i0 + j;
			if (data) {
				run++;
				continue;
			}
			if (run && (j < k || i == npages)) { /* a run ends at i */
				size_t end = i * ps < len ? i * ps : len, start = (i - run) * ps;
				if (fn)
					fn((uint8_t *)p + start, end - start);
				total += end - start;
				run = 0;
			}
		}
	}
	if (fd >= 0)
		close(fd);
	free(vec);
	free(ent);
	return total;
fail:
	if (fd >= 0)
		close(fd);
	free(vec);
	free(ent);
	return SIZE_MAX;
}

static void bigmap_clear(uint8_t *at, size_t n)
{
	memset(at, 0, n);
}

static void *bigmap_new(size_t len, bool huge)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (huge && len >= (2u << 20))
		madvise(p, len, MADV_HUGEPAGE);
	return p;
}

/* Remove slot @i from the idle list; returns it. */
static struct bigmap_slot bigmap_take(unsigned i) RL_REQUIRES(bigmap_lock)
{
	struct bigmap_slot s = bigmap_slot[i];

	memmove(&bigmap_slot[i], &bigmap_slot[i + 1], (bigmap_n - i - 1) * sizeof(bigmap_slot[0]));
	bigmap_n--;
	bigmap_bytes -= s.resident;
	return s;
}

/*
 * The length handed out for a request of @len: a power of two from 2 MiB
 * up, so that tables of nearly the same size (a drive with another spare
 * area) share a mapping.  The pages past @len are never touched, and the
 * mapping is sparse, so the rounding costs address space only.
 */
static size_t bigmap_class(size_t len)
{
	size_t c = 2u << 20;

	if (len <= c)
		return len;
	while (c < len && c < SIZE_MAX / 2)
		c <<= 1;
	return c < len ? len : c;
}

void *rl_bigmap_get(size_t len, bool huge)
{
	struct bigmap_slot s = {0};

	if (!len)
		return NULL;
	len = bigmap_class(len);
	rl_mutex_lock(&bigmap_lock);
	for (unsigned i = bigmap_n; i-- > 0;) {
		if (bigmap_slot[i].len == len) {
			s = bigmap_take(i);
			break;
		}
	}
	rl_mutex_unlock(&bigmap_lock);
	if (!s.p)
		return bigmap_new(len, huge);
	if (len >= (2u << 20))
		madvise(s.p, len, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	if (s.resident && bigmap_resident(s.p, len, bigmap_clear) == SIZE_MAX) {
		/* cannot tell which pages hold data: give the pages back instead */
		if (madvise(s.p, len, MADV_DONTNEED)) {
			munmap(s.p, len);
			return bigmap_new(len, huge);
		}
	}
	return s.p;
}

void rl_bigmap_put(void *p, size_t len)
{
	size_t resident, cap = bigmap_cap();
	void *gone[BIGMAP_SLOTS + 1];
	size_t gone_len[BIGMAP_SLOTS + 1];
	unsigned ngone = 0;

	if (!p)
		return;
	len = bigmap_class(len);
	resident = bigmap_resident(p, len, NULL);
	if (resident == SIZE_MAX || resident > cap) {
		munmap(p, len);
		return;
	}
	rl_mutex_lock(&bigmap_lock);
	while (bigmap_n && (bigmap_n == BIGMAP_SLOTS || bigmap_bytes + resident > cap)) {
		struct bigmap_slot old = bigmap_take(0);
		gone[ngone] = old.p;
		gone_len[ngone++] = old.len;
	}
	bigmap_slot[bigmap_n++] = (struct bigmap_slot){.p = p, .len = len, .resident = resident};
	bigmap_bytes += resident;
	rl_mutex_unlock(&bigmap_lock);
	for (unsigned i = 0; i < ngone; i++)
		munmap(gone[i], gone_len[i]);
}

void rl_bigmap_drop(void)
{
	for (;;) {
		struct bigmap_slot s;
		rl_mutex_lock(&bigmap_lock);
		if (!bigmap_n) {
			rl_mutex_unlock(&bigmap_lock);
			return;
		}
		s = bigmap_take(bigmap_n - 1);
		rl_mutex_unlock(&bigmap_lock);
		munmap(s.p, s.len);
	}
}

size_t rl_bigmap_idle_bytes(void)
{
	size_t n;

	rl_mutex_lock(&bigmap_lock);
	n = bigmap_bytes;
	rl_mutex_unlock(&bigmap_lock);
	return n;
}
