/*
 * fleet.c - jobs measured on every rank at once (fleet.h).
 *
 * Messages: a stonewall is one int (the sender's rank) with the tag
 * FLEET_TAG_STONE + wave, so a late one can never stop a later wave; the
 * results go to rank 0 with FLEET_TAG_RESULT as one buffer: a header (rank,
 * host, spec, number of jobs) and one fleet_wire per job.  Rank 0 parses
 * its own buffer the same way, so every rank's figures take one path.
 * A suite's steps go to rank 0 with FLEET_TAG_STEP and its answers come
 * back with FLEET_TAG_REPLY; a share (fleet_share) is a step whose answer
 * also carries rank 0's bytes, so a decision reaches every rank with no
 * message of its own and a rank that failed instead stops the others
 * there as at any step.  Every wait is a loop of probes with a short
 * sleep (mpi/rank.h).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi/rank.h"
#include "results/result.h"
#include "suites/fleet.h"

enum { FLEET_TAG_RESULT = 1999, FLEET_TAG_STONE = 2000 };

/* how long a message that has started to arrive may take to finish */
#define FLEET_RECV_WAIT_S 60.0

struct fleet_head {
	int32_t rank;
	uint32_t njobs;
	char host[FLEET_HOST_MAX];
	char spec[FLEET_SPEC_MAX];
};

struct fleet_wire {
	struct wl_job job;
	uint64_t runtime_ns, errors, verify_bad;
	int32_t first_error, rate_min_missed;
	uint8_t done, stopped, ok;
	struct {
		uint64_t ios, bytes;
		struct st_hist hist;
	} dir[WL_DIRS];
};

static void fleet_nap(void)
{
	nanosleep(&(struct timespec){.tv_nsec = 2000000}, NULL);
}

bool fleet_active(void)
{
	return rl_mpi_active();
}

void fleet_init(struct fleet *f)
{
	memset(f, 0, sizeof(*f));
	f->rank = rl_mpi_rank();
	f->size = rl_mpi_size();
	if (gethostname(f->host, sizeof(f->host) - 1))
		snprintf(f->host, sizeof(f->host), "unknown");
}

static void fleet_sends_finish(struct fleet *f)
{
	for (size_t i = 0; i < f->nsends; i++) {
		int rc = 0;
		for (int k = 0; k < 5000 && !(rc = rl_mpi_test(f->sends[i])); k++)
			fleet_nap();
		if (!rc)
			rl_mpi_cancel(f->sends[i]);
	}
	free(f->sends);
	f->sends = NULL;
	f->nsends = 0;
}

/* Rank 0: the gathered jobs, gone. */
static void fleet_jobs_free(struct fleet *f)
{
	for (size_t j = 0; j < f->njobs; j++) {
		for (int r = 0; f->jobs[j].ranks && r < f->size; r++)
			wl_result_free(&f->jobs[j].ranks[r].res);
		free(f->jobs[j].ranks);
		wl_result_free(&f->jobs[j].merged);
	}
	free(f->jobs);
	f->jobs = NULL;
	f->njobs = 0;
}

/* Rank 0: room for @n jobs of every rank.  0 or -ENOMEM. */
static int fleet_jobs_alloc(struct fleet *f, size_t n)
{
	fleet_jobs_free(f);
	f->jobs = calloc(n ? n : 1, sizeof(*f->jobs));
	if (!f->jobs)
		return -ENOMEM;
	f->njobs = n;
	for (size_t i = 0; i < n; i++)
		if (!(f->jobs[i].ranks = calloc((size_t)f->size, sizeof(*f->jobs[i].ranks))))
			return -ENOMEM;
	return 0;
}

void fleet_free(struct fleet *f)
{
	fleet_sends_finish(f);
	fleet_jobs_free(f);
	free(f->wave_stopped);
	memset(f, 0, sizeof(*f));
}

/* The length of the name at @p ($name or ${name}) when it is @name, else 0. */
static size_t fleet_var(const char *p, const char *name)
{
	size_t n = strlen(name);

	if (p[1] == '{')
		return !strncmp(p + 2, name, n) && p[2 + n] == '}' ? n + 3 : 0;
	if (strncmp(p + 1, name, n))
		return 0;
	char c = p[1 + n];
	bool word =
	    (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
	return word ? 0 : n + 1;
}

int fleet_subst(const struct fleet *f, const char *in, char *out, size_t len)
{
	char rank[16], nranks[16];
	const char *names[] = {"rank", "nranks", "host"};
	const char *vals[] = {rank, nranks, f->host};
	size_t o = 0;

	snprintf(rank, sizeof(rank), "%d", f->rank);
	snprintf(nranks, sizeof(nranks), "%d", f->size);
	for (const char *p = in; *p;) {
		const char *val = NULL;
		size_t skip = 0;
		for (size_t k = 0; *p == '$' && !val && k < 3; k++)
			if ((skip = fleet_var(p, names[k])))
				val = vals[k];
		if (!val) {
			val = p;
			skip = 1;
		}
		size_t vlen = val == p ? 1 : strlen(val);
		if (o + vlen >= len)
			return -ENAMETOOLONG;
		memcpy(out + o, val, vlen);
		o += vlen;
		p += skip;
	}
	out[o] = 0;
	return 0;
}

int fleet_offsets(const struct fleet *f, struct wl_job *jobs, size_t n, char *msg, size_t msglen)
{
	for (size_t i = 0; f->offset_per_rank && i < n; i++) {
		if (jobs[i].offset_pct) {
			snprintf(msg, msglen,
			         "job '%s': offset=%u%% and --offset-per-rank cannot be combined "
			         "(give offset= in bytes)",
			         jobs[i].name, jobs[i].offset_pct);
			return -EINVAL;
		}
		jobs[i].offset += f->offset_per_rank * (uint64_t)f->rank;
	}
	return 0;
}

/* Receive and drop stonewalls of waves before @wave (one that came late). */
static void fleet_drain(unsigned wave)
{
	int src, tag, stone;
	size_t len;

	while (rl_mpi_probe(-1, -1, &src, &tag, &len) == 1 && tag >= FLEET_TAG_STONE &&
	       tag < FLEET_TAG_STONE + (int)wave && len == sizeof(stone))
		rl_mpi_recv(src, tag, &stone, sizeof(stone), FLEET_RECV_WAIT_S);
}

/* The progress poll during a stonewalled wave: has another rank finished? */
static void fleet_progress(void *arg, const struct wl_progress *p)
{
	struct fleet *f = arg;
	int src, tag, stone;
	size_t len;

	if (!f->wave_stopped[f->wave] &&
	    rl_mpi_probe(-1, FLEET_TAG_STONE + (int)f->wave, &src, &tag, &len) == 1 &&
	    len == sizeof(stone) &&
	    !rl_mpi_recv(src, tag, &stone, sizeof(stone), FLEET_RECV_WAIT_S)) {
		f->wave_stopped[f->wave] = true;
		wl_run_request_stop();
	}
	if (f->inner.progress)
		f->inner.progress(f->inner.progress_arg, p);
}

int fleet_wave_begin(struct fleet *f, unsigned wave, struct wl_run_opts *opts)
{
	if (wave >= f->nwaves) {
		bool *w = realloc(f->wave_stopped, (wave + 1) * sizeof(*w));
		if (!w)
			return -ENOMEM;
		memset(w + f->nwaves, 0, (wave + 1 - f->nwaves) * sizeof(*w));
		f->wave_stopped = w;
		f->nwaves = wave + 1;
	}
	fleet_drain(wave);
	if (rl_mpi_barrier())
		return -EIO;
	f->wave = wave;
	f->inner = *opts;
	if (f->stonewall && f->size > 1) {
		opts->progress = fleet_progress;
		opts->progress_arg = f;
	}
	return 0;
}

bool fleet_wave_end(struct fleet *f, struct wl_run_opts *opts)
{
	bool stopped = f->wave_stopped[f->wave];

	*opts = f->inner;
	if (!f->stonewall || stopped || f->size < 2)
		return stopped;
	struct rl_mpi_send **s = realloc(f->sends, (f->nsends + (size_t)f->size) * sizeof(*s));
	if (!s)
		return false;
	f->sends = s;
	for (int r = 0; r < f->size; r++) {
		int32_t me = f->rank;
		if (r != f->rank && !rl_mpi_isend(r, FLEET_TAG_STONE + (int)f->wave, &me,
		                                  sizeof(me), &f->sends[f->nsends]))
			f->nsends++;
	}
	return false;
}

/* One job's figures for the wire. */
static void fleet_wire_fill(struct fleet_wire *w, const struct wl_result *res, bool stopped)
{
	w->job = res->job;
	w->runtime_ns = res->runtime_ns;
	w->errors = res->errors;
	w->verify_bad = res->verify_bad;
	w->first_error = res->first_error;
	w->rate_min_missed = res->rate_min_missed;
	w->stopped = stopped;
	w->ok = wl_result_ok(res);
	for (int d = 0; d < WL_DIRS; d++) {
		w->dir[d].ios = res->dir[d].ios;
		w->dir[d].bytes = res->dir[d].bytes;
		w->dir[d].hist = res->dir[d].hist;
	}
}

/* A rank's figures of one job from the wire (its header @h). */
static void fleet_wire_read(struct fleet_rank *fr, const struct fleet_head *h,
                            const struct fleet_wire *w)
{
	fr->rank = h->rank;
	snprintf(fr->host, sizeof(fr->host), "%.*s", FLEET_HOST_MAX - 1, h->host);
	snprintf(fr->spec, sizeof(fr->spec), "%.*s", FLEET_SPEC_MAX - 1, h->spec);
	wl_result_init(&fr->res, &w->job);
	if (!w->done)
		return;
	fr->res.runtime_ns = w->runtime_ns;
	fr->res.errors = w->errors;
	fr->res.verify_bad = w->verify_bad;
	fr->res.first_error = w->first_error;
	fr->res.rate_min_missed = w->rate_min_missed;
	fr->stopped = w->stopped;
	fr->ok = w->ok;
	for (int d = 0; d < WL_DIRS; d++) {
		fr->res.dir[d].ios = w->dir[d].ios;
		fr->res.dir[d].bytes = w->dir[d].bytes;
		fr->res.dir[d].hist = w->dir[d].hist;
	}
}

/* This rank's results as one message. */
static void *fleet_pack(const struct fleet *f, const struct wl_result *res, const bool *done,
                        const unsigned *wave, size_t n, const char *spec, size_t *len)
{
	*len = sizeof(struct fleet_head) + n * sizeof(struct fleet_wire);
	char *buf = calloc(1, *len);
	if (!buf)
		return NULL;
	struct fleet_head *h = (struct fleet_head *)buf;
	struct fleet_wire *w = (struct fleet_wire *)(buf + sizeof(*h));
	h->rank = f->rank;
	h->njobs = (uint32_t)n;
	snprintf(h->host, sizeof(h->host), "%s", f->host);
	snprintf(h->spec, sizeof(h->spec), "%s", spec);
	for (size_t i = 0; i < n; i++)
		if ((w[i].done = done[i]))
			fleet_wire_fill(&w[i], &res[i],
			                wave[i] < f->nwaves && f->wave_stopped[wave[i]]);
	return buf;
}

/* Rank 0: one rank's message into f->jobs[*].ranks[rank]. */
static int fleet_unpack(struct fleet *f, const void *buf, size_t len, char *msg, size_t msglen)
{
	const struct fleet_head *h = buf;
	const struct fleet_wire *w = (const void *)((const char *)buf + sizeof(*h));

	if (len < sizeof(*h) || h->njobs != f->njobs || len != sizeof(*h) + h->njobs * sizeof(*w) ||
	    h->rank < 0 || h->rank >= f->size) {
		snprintf(msg, msglen,
		         "a rank's results do not match rank 0's jobs (the same command and "
		         "raidlab on every rank?)");
		return -EPROTO;
	}
	for (size_t i = 0; i < f->njobs; i++)
		fleet_wire_read(&f->jobs[i].ranks[h->rank], h, &w[i]);
	return 0;
}

static double fleet_total_bw(const struct wl_result *r)
{
	double bw = 0;
	for (int d = 0; d < WL_DIRS; d++)
		bw += wl_result_bw(r, (enum rl_op)d);
	return bw;
}

/* Rank 0: the aggregate of job @j over the ranks. */
static void fleet_aggregate(struct fleet *f, struct fleet_job *j)
{
	double lo = 0, hi = 0;

	wl_result_init(&j->merged, &j->ranks[0].res.job);
	for (int r = 0; r < f->size; r++) {
		const struct wl_result *res = &j->ranks[r].res;
		double bw = fleet_total_bw(res);
		wl_result_merge(&j->merged, res);
		for (int d = 0; d < WL_DIRS; d++) {
			j->bw[d] += wl_result_bw(res, (enum rl_op)d);
			j->iops[d] += wl_result_iops(res, (enum rl_op)d);
		}
		if (r == 0 || bw < lo) {
			lo = bw;
			j->slowest = r;
		}
		if (r == 0 || bw > hi) {
			hi = bw;
			j->fastest = r;
		}
		j->nstopped += j->ranks[r].stopped;
	}
	j->merged.job.numjobs *= (uint32_t)f->size;
}

/* Rank 0: wait for rank @r's results and unpack them. */
static int fleet_collect(struct fleet *f, int r, char *msg, size_t msglen)
{
	int src, tag, rc;
	size_t len;

	while ((rc = rl_mpi_probe(r, FLEET_TAG_RESULT, &src, &tag, &len)) == 0)
		fleet_nap();
	if (rc < 0) {
		snprintf(msg, msglen, "rank %d: its results did not arrive", r);
		return -EIO;
	}
	void *buf = malloc(len ? len : 1);
	if (!buf)
		return -ENOMEM;
	rc = rl_mpi_recv(r, FLEET_TAG_RESULT, buf, len, FLEET_RECV_WAIT_S);
	if (rc)
		snprintf(msg, msglen, "rank %d: its results stopped halfway", r);
	else
		rc = fleet_unpack(f, buf, len, msg, msglen);
	free(buf);
	return rc;
}

int fleet_gather(struct fleet *f, const struct wl_result *res, const bool *done,
                 const unsigned *wave, size_t n, const char *spec, char *msg, size_t msglen)
{
	size_t len;
	void *mine = fleet_pack(f, res, done, wave, n, spec, &len);
	int rc = 0;

	if (!mine)
		return -ENOMEM;
	fleet_sends_finish(f);
	if (f->rank > 0) {
		struct rl_mpi_send *s;
		rc = rl_mpi_isend(0, FLEET_TAG_RESULT, mine, len, &s);
		free(mine);
		if (rc) {
			snprintf(msg, msglen, "cannot send the results to rank 0");
			return rc;
		}
		while ((rc = rl_mpi_test(s)) == 0)
			fleet_nap();
		return rc < 0 ? rc : 0;
	}
	if (fleet_jobs_alloc(f, n)) {
		free(mine);
		return -ENOMEM;
	}
	rc = fleet_unpack(f, mine, len, msg, msglen);
	free(mine);
	for (int r = 1; !rc && r < f->size; r++)
		rc = fleet_collect(f, r, msg, msglen);
	for (size_t i = 0; !rc && i < n; i++)
		if (done[i])
			fleet_aggregate(f, &f->jobs[i]);
	return rc;
}

bool fleet_ok(const struct fleet *f)
{
	for (size_t i = 0; i < f->njobs; i++)
		for (int r = 0; f->jobs[i].merged.runtime_ns && r < f->size; r++)
			if (!f->jobs[i].ranks[r].ok)
				return false;
	return true;
}

static struct json_object *fleet_rank_json(const struct fleet_rank *fr)
{
	struct json_object *o = json_object_new_object();
	static const char *const dirs[WL_DIRS] = {"read", "write", "trim"};

	json_object_object_add(o, "rank", json_object_new_int(fr->rank));
	json_object_object_add(o, "host", json_object_new_string(fr->host));
	json_object_object_add(o, "target", json_object_new_string(fr->spec));
	json_object_object_add(o, "stopped_by_stonewall", json_object_new_boolean(fr->stopped));
	json_object_object_add(o, "runtime_ns", json_object_new_int64((int64_t)fr->res.runtime_ns));
	for (int d = 0; d < WL_DIRS; d++)
		if (fr->res.dir[d].ios)
			json_object_object_add(o, dirs[d],
			                       st_result_dir(&fr->res.dir[d], fr->res.runtime_ns));
	return o;
}

/* The aggregate of a direction: sums of the ranks' rates, the merged histogram. */
static struct json_object *fleet_dir_json(const struct fleet_job *j, int d)
{
	struct json_object *o = st_result_dir(&j->merged.dir[d], j->merged.runtime_ns);

	json_object_object_del(o, "series");
	json_object_object_del(o, "runtime_s");
	json_object_object_add(o, "mb_s", json_object_new_double(j->bw[d] / 1e6));
	json_object_object_add(o, "mib_s", json_object_new_double(j->bw[d] / 1048576.0));
	json_object_object_add(o, "iops", json_object_new_double(j->iops[d]));
	return o;
}

struct json_object *fleet_json(const struct fleet *f)
{
	struct json_object *o = json_object_new_object(), *jobs = json_object_new_array();
	static const char *const dirs[WL_DIRS] = {"read", "write", "trim"};

	json_object_object_add(o, "ranks", json_object_new_int(f->size));
	json_object_object_add(o, "stonewall", json_object_new_boolean(f->stonewall));
	for (size_t i = 0; i < f->njobs; i++) {
		const struct fleet_job *j = &f->jobs[i];
		if (!j->ranks || !j->merged.runtime_ns)
			continue;
		struct json_object *jo = json_object_new_object(), *agg = json_object_new_object();
		struct json_object *ranks = json_object_new_array();
		json_object_object_add(jo, "name", json_object_new_string(j->merged.job.name));
		for (int d = 0; d < WL_DIRS; d++)
			if (j->merged.dir[d].ios)
				json_object_object_add(agg, dirs[d], fleet_dir_json(j, d));
		json_object_object_add(jo, "aggregate", agg);
		json_object_object_add(jo, "slowest_rank", json_object_new_int(j->slowest));
		json_object_object_add(jo, "fastest_rank", json_object_new_int(j->fastest));
		json_object_object_add(jo, "ranks_stopped_by_stonewall",
		                       json_object_new_int((int)j->nstopped));
		for (int r = 0; r < f->size; r++)
			json_object_array_add(ranks, fleet_rank_json(&j->ranks[r]));
		json_object_object_add(jo, "ranks", ranks);
		json_object_array_add(jobs, jo);
	}
	json_object_object_add(o, "jobs", jobs);
	return o;
}

/* --- suites over a fleet: steps in lockstep --- */

enum { FLEET_TAG_STEP = 1997, FLEET_TAG_REPLY = 1998 };

/* A rank's step: what it is at, and with a result its figures. */
struct fleet_step_msg {
	int32_t kind;
	uint32_t seq;
	char name[WL_NAME_MAX];
	char why[256];
	struct fleet_head head;
	struct fleet_wire wire;
};

/* Rank 0's answer: go on, or stop (and why); with a share, rank 0's bytes. */
struct fleet_step_reply {
	int32_t go;
	char why[768];
	uint32_t len;
	unsigned char data[FLEET_SHARE_MAX];
};

static const char *fleet_step_what(const struct fleet_step_msg *m)
{
	return m->kind == FLEET_STEP_END ? "the end of the suite" : m->name;
}

/* Rank 0: should the ranks go on?  Else why not, in @why. */
static bool fleet_step_agree(const struct fleet *f, const struct fleet_step_msg *m, char *why,
                             size_t len)
{
	for (int r = 0; r < f->size; r++)
		if (m[r].kind == FLEET_STEP_FAIL) {
			snprintf(why, len, "rank %d (%s): %s", r, m[r].head.host, m[r].why);
			return false;
		}
	for (int r = 1; r < f->size; r++)
		if (m[r].kind != m[0].kind || m[r].seq != m[0].seq ||
		    strcmp(m[r].name, m[0].name)) {
			snprintf(why, len,
			         "the ranks ran different tests (rank 0 '%s', rank %d '%s'): every "
			         "rank needs the same command and a test area of the same size "
			         "(give --size)",
			         fleet_step_what(&m[0]), r, fleet_step_what(&m[r]));
			return false;
		}
	return true;
}

/* Rank 0: every rank's step (its own in m[0]); 0 or -EIO. */
static int fleet_step_collect(struct fleet_step_msg *m, int size)
{
	for (int r = 1; r < size; r++) {
		int src, tag, rc;
		size_t len;
		while ((rc = rl_mpi_probe(r, FLEET_TAG_STEP, &src, &tag, &len)) == 0)
			fleet_nap();
		if (rc < 0 || len != sizeof(*m) ||
		    rl_mpi_recv(r, FLEET_TAG_STEP, &m[r], sizeof(*m), FLEET_RECV_WAIT_S))
			return -EIO;
	}
	return 0;
}

/* Rank 0: the results of the step, aggregated into f->jobs[0]. */
static int fleet_step_results(struct fleet *f, const struct fleet_step_msg *m)
{
	if (fleet_jobs_alloc(f, 1))
		return -ENOMEM;
	for (int r = 0; r < f->size; r++)
		fleet_wire_read(&f->jobs[0].ranks[r], &m[r].head, &m[r].wire);
	fleet_aggregate(f, &f->jobs[0]);
	return 0;
}

/* Rank 0: the answer to every other rank. */
static void fleet_step_answer(struct fleet *f, const struct fleet_step_reply *rep)
{
	for (int r = 1; r < f->size; r++) {
		struct rl_mpi_send *s;
		if (rl_mpi_isend(r, FLEET_TAG_REPLY, rep, sizeof(*rep), &s))
			continue;
		while (!rl_mpi_test(s))
			fleet_nap();
	}
}

/* Another rank: send the step to rank 0 and wait for its answer.  0 or -EIO. */
static int fleet_step_ask(const struct fleet_step_msg *m, struct fleet_step_reply *rep)
{
	struct rl_mpi_send *s;
	int src, tag, rc;
	size_t len;

	if (rl_mpi_isend(0, FLEET_TAG_STEP, m, sizeof(*m), &s))
		return -EIO;
	while ((rc = rl_mpi_test(s)) == 0)
		fleet_nap();
	if (rc < 0)
		return -EIO;
	while ((rc = rl_mpi_probe(0, FLEET_TAG_REPLY, &src, &tag, &len)) == 0)
		fleet_nap();
	if (rc < 0 || len != sizeof(*rep) ||
	    rl_mpi_recv(0, FLEET_TAG_REPLY, rep, sizeof(*rep), FLEET_RECV_WAIT_S))
		return -EIO;
	return 0;
}

/*
 * One step: every rank's message to rank 0, rank 0's answer to all.  With
 * FLEET_STEP_SHARE rank 0's @len bytes at @buf travel in the answer into
 * every other rank's @buf.
 */
static int fleet_step_run(struct fleet *f, enum fleet_step_kind kind, const char *name,
                          const struct wl_result *res, const char *why, void *buf, size_t len,
                          char *msg, size_t msglen)
{
	struct fleet_step_msg *m;
	struct fleet_step_reply rep = {.go = 1};
	int rc = 0;

	if (f->halted) {
		snprintf(msg, msglen, "%s", f->halt_why);
		return -ECANCELED;
	}
	fleet_sends_finish(f);
	m = calloc(f->rank ? 1 : (size_t)f->size, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->kind = kind;
	m->seq = f->step++;
	snprintf(m->name, sizeof(m->name), "%s", name ? name : "");
	snprintf(m->why, sizeof(m->why), "%s", why ? why : "");
	m->head.rank = f->rank;
	m->head.njobs = res ? 1 : 0;
	snprintf(m->head.host, sizeof(m->head.host), "%s", f->host);
	snprintf(m->head.spec, sizeof(m->head.spec), "%s", f->spec);
	if (res) {
		m->wire.done = 1;
		fleet_wire_fill(&m->wire, res, f->nwaves > f->wave && f->wave_stopped[f->wave]);
	}
	if (f->rank > 0) {
		rc = fleet_step_ask(m, &rep);
		if (!rc && rep.go && kind == FLEET_STEP_SHARE) {
			if (rep.len == len)
				memcpy(buf, rep.data, len);
			else
				rc = -EPROTO;
		}
	} else {
		rc = fleet_step_collect(m, f->size);
		if (!rc && !(rep.go = fleet_step_agree(f, m, rep.why, sizeof(rep.why))))
			rc = 0;
		else if (!rc && kind == FLEET_STEP_RESULT)
			rc = fleet_step_results(f, m);
		if (!rc && rep.go && kind == FLEET_STEP_SHARE) {
			rep.len = (uint32_t)len;
			memcpy(rep.data, buf, len);
		}
		if (rc) {
			rep.go = 0;
			snprintf(rep.why, sizeof(rep.why), "rank 0: %s",
			         rc == -EIO ? "a rank's step did not arrive" : strerror(-rc));
		}
		fleet_step_answer(f, &rep);
	}
	free(m);
	if (rc == -EIO && f->rank > 0)
		snprintf(rep.why, sizeof(rep.why), "rank %d: rank 0's answer did not arrive",
		         f->rank);
	if (rc == -EPROTO)
		snprintf(rep.why, sizeof(rep.why),
		         "rank %d: rank 0 shared %u bytes at '%s', this rank expected %zu (the "
		         "same raidlab on every rank?)",
		         f->rank, rep.len, name ? name : "", len);
	if (rc || !rep.go) {
		f->halted = true;
		snprintf(f->halt_why, sizeof(f->halt_why), "%s", rep.why);
		snprintf(msg, msglen, "%s", rep.why);
		return -ECANCELED;
	}
	return 0;
}

int fleet_step(struct fleet *f, enum fleet_step_kind kind, const char *name,
               const struct wl_result *res, const char *why, char *msg, size_t msglen)
{
	if (kind == FLEET_STEP_SHARE) /* only through fleet_share, which gives the bytes */
		return -EINVAL;
	return fleet_step_run(f, kind, name, res, why, NULL, 0, msg, msglen);
}

int fleet_share(struct fleet *f, const char *name, void *buf, size_t len, char *msg, size_t msglen)
{
	if (len > FLEET_SHARE_MAX) {
		snprintf(msg, msglen, "'%s': %zu bytes to share, at most %d", name, len,
		         FLEET_SHARE_MAX);
		return -EINVAL;
	}
	return fleet_step_run(f, FLEET_STEP_SHARE, name, NULL, NULL, buf, len, msg, msglen);
}
