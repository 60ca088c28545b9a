/*
 * options.c - the job option table and the public entry points that use it.
 *
 * Design: one static table (opt_table) describes every option once: its
 * public description (struct wl_option_info: name, alias, type, default
 * text, help) plus how to set it (a setter and, for the generic setters, the
 * field offset and bounds).  Everything else is derived from that table:
 *   - wl_job_set looks the name (or alias) up and calls the setter;
 *   - wl_job_init applies every default text through the same setters, so
 *     the defaults cannot drift from what help and docs say;
 *   - wl_options() hands out the descriptions for `raidlab help options`
 *     and docs/options.md (copied once into a plain array);
 *   - an unknown name gets a "did you mean" from the table by edit distance.
 *
 * The setters live by family in opt_*.c (see opt_priv.h for the map).
 * Setters check the whole value before touching the job, so a failed
 * wl_job_set leaves the job unchanged.  Every message names the option as
 * the user spelled it, the expected form and the value given.  Numbers with
 * units go through rl_parse_size / rl_parse_time / rl_parse_u64 /
 * rl_parse_bool (core/units.c) so units mean the same as in target specs;
 * their own messages are not repeated, ours say what this option expects.
 *
 * Rules that involve more than one option live in wl_job_validate
 * (opt_validate.c), which runs after all options are set (a [global] may
 * set time_based and a job runtime).  It re-checks every range as well, for
 * jobs built by hand.
 */
#include "workload/opt_priv.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* --- the table --- */

#define OPT_INFO(n, a, t, d, h) .info = {.name = n, .alias = a, .type = t, .def = d, .help = h}

static const struct opt_def opt_table[] = {
    {OPT_INFO("name", NULL, "str", "job",
              "Job name used in reports, 1 to 63 characters.  In a job file the section "
              "name is the job name, and name= in the section overrides it."),
     .set = opt_set_name},
    {OPT_INFO("rw", "readwrite", "enum", "read",
              "I/O pattern: read, write, randread, randwrite, rw (or readwrite: sequential "
              "mixed), randrw, trim, randtrim.  As in fio, a random mode may end in ':N' "
              "for a new random offset every N I/Os (rw=randread:8 gives runs of 8 sequential "
              "I/Os), a sequential one in ':SIZE' to skip SIZE after every I/O "
              "(rw=read:64k; negative goes back)."),
     .set = opt_set_rw, .choices = opt_rw_choices},
    {OPT_INFO("bs", "blocksize", "size", "4k",
              "Block size of every I/O, from 1 byte to 64m.  The target must take it: "
              "a device or an O_DIRECT file takes multiples of its sector, a buffered "
              "regular file (direct=0, filename=) and a socket (ioengine=net) any size, "
              "other targets multiples of 512.  Setting bs clears bssplit (the later of the "
              "two wins).  A range MIN-MAX (bs=4k-64k) is bsrange.  fio's per-direction form "
              "READ,WRITE[,TRIM] (4k,64k) gives each direction its size (an empty field keeps "
              "the default; trims follow writes)."),
     .set = opt_set_bs},
    {OPT_INFO("bsrange", "blocksize_range", "str", "",
              "MIN-MAX: block sizes from MIN to MAX in steps of MIN, equally likely (MAX at "
              "most 16 x MIN); bs=MIN-MAX is the same.  It becomes a bssplit."),
     .set = opt_set_bsrange},
    {OPT_INFO("bssplit", NULL, "bssplit", "",
              "Mix of block sizes: SIZE/PCT entries separated by ':' (4k/60:64k/40), each "
              "size as for bs, at most 16 entries, percentages adding up to 100.  Entries "
              "without /PCT share the rest equally (the first ones get 1 more if it does "
              "not divide evenly).  Replaces bs until bs is set again.  READ,WRITE[,TRIM] "
              "lists give each direction its own (trims take the writes' unless given), "
              "as fio (4k/50:64k/50,1m/100)."),
     .set = opt_set_bssplit},
    {OPT_INFO("iodepth", NULL, "int", "1",
              "I/Os kept in flight by each job: 1 to 65536 (io_uring: up to 32768)."),
     .set = opt_set_iodepth, .off = OPT_OFF(iodepth, uint32_t), .min = 1, .max = 65536},
    {OPT_INFO("iodepth_batch", "iodepth_batch_submit", "int", "1",
              "Requests handed to the kernel at once (io_uring, libaio): 1 submits each "
              "as soon as it is ready, as fio does; N waits until N are ready; 0 means "
              "iodepth.  Larger batches save system calls but leave the device idle "
              "while a batch fills."),
     .set = opt_set_u32, .off = OPT_OFF(iodepth_batch, uint32_t), .min = 0, .max = 65536},
    {OPT_INFO("iodepth_batch_complete_min", "iodepth_batch_complete", "int", "1",
              "Completions a job waits for once its queue is full (libaio): 1, as fio, "
              "waits for one; N waits until N are done; 0 never waits in the kernel but "
              "polls (a busy loop, as fio's).  io_uring waits for one."),
     .set = opt_set_u32, .off = OPT_OFF(iodepth_batch_complete_min, uint32_t), .min = 0,
     .max = 65536},
    {OPT_INFO("iodepth_batch_complete_max", NULL, "int", "0",
              "Completions taken from the kernel per system call (libaio): 0 means "
              "iodepth_batch_complete_min (at least 1), so by default each completion is "
              "one io_getevents() call, as in fio; iodepth takes every finished one at "
              "once and saves those calls.  io_uring takes as many from its ring (no "
              "system call) before the job queues again, as fio's io_uring engine does."),
     .set = opt_set_u32, .off = OPT_OFF(iodepth_batch_complete_max, uint32_t), .min = 0,
     .max = 65536},
    {OPT_INFO("numjobs", NULL, "int", "1",
              "Copies of the job run at the same time, 1 to 1024; each covers the same "
              "region (unless offset_increment is set) with its own random sequence."),
     .set = opt_set_u32, .off = OPT_OFF(numjobs, uint32_t), .min = 1, .max = 1024},
    {OPT_INFO("size", NULL, "size", "0",
              "Bytes of the target the job covers, starting at offset; 0 means up to the "
              "end of the target.  Only whole blocks are used.  A percentage (size=50%) is "
              "that share of the target, which must exist then (a new file needs bytes)."),
     .set = opt_set_size, .off = OPT_OFF(size, uint64_t)},
    {OPT_INFO("offset", NULL, "size", "0",
              "Start of the region in bytes, or a percentage of the target (offset=25%), 0 "
              "to 99.  Any byte on a buffered job over a plain file, as in fio; elsewhere a "
              "multiple of the target's block size."),
     .set = opt_set_size, .off = OPT_OFF(offset, uint64_t)},
    {OPT_INFO("offset_increment", NULL, "size", "0",
              "With numjobs, copy k's region starts at offset + k x offset_increment, so "
              "the copies work on separate parts of the target, as in fio; 0: every copy "
              "covers the same region.  Bytes as for offset."),
     .set = opt_set_size, .off = OPT_OFF(offset_increment, uint64_t)},
    {OPT_INFO("runtime", "timeout", "time", "0",
              "Stop the job after this long; a plain number is seconds, suffixes ns, us, "
              "ms, s, m, h.  0 means no limit: the job ends after covering its region "
              "loops times."),
     .set = opt_set_time, .off = OPT_OFF(runtime_ns, uint64_t)},
    {OPT_INFO("time_based", NULL, "bool", "0",
              "Repeat the workload until runtime has passed, however often the region is "
              "covered.  Without a runtime it has no effect: a note says so and the job "
              "runs its size once, as in fio."),
     .set = opt_set_bool, .off = OPT_OFF(time_based, bool)},
    {OPT_INFO("ramp_time", NULL, "time", "0",
              "Run this long before recording anything (a plain number is seconds).  The "
              "ramp comes before runtime starts counting, as in fio."),
     .set = opt_set_time, .off = OPT_OFF(ramp_ns, uint64_t)},
    {OPT_INFO("rwmixread", NULL, "percent", "50",
              "Percentage of reads in rw and randrw, 0 to 100 (70 or 70%); rwmixwrite "
              "becomes the rest."),
     .set = opt_set_rwmix, .off = OPT_OFF(rwmixread, uint32_t)},
    {OPT_INFO("rwmixwrite", NULL, "percent", "50",
              "Percentage of writes in rw and randrw, 0 to 100; sets rwmixread to 100 "
              "minus this.  Given with rwmixread, the two must add up to 100."),
     .set = opt_set_rwmix},
    {OPT_INFO("random_distribution", NULL, "dist", "random",
              "Offsets of random patterns: random (uniform), zipf[:THETA] (THETA above 0 and "
              "not 1, default 1.1) or pareto[:H] (0 < H < 1, default 0.2).  zipf and pareto "
              "imply norandommap, as in fio.  A sequential rw does not use it (as in fio)."),
     .set = opt_set_dist},
    {OPT_INFO("direct", NULL, "bool", "1",
              "1: O_DIRECT, bypassing the page cache; 0: through the page cache.  A job "
              "that runs where fio would (filename= names paths, directory= is set, or "
              "no file and no --target: fio's file NAME.CLONE.0) and says neither direct= "
              "nor buffered= runs buffered, as in fio."),
     .set = opt_set_direct, .off = OPT_OFF(direct, bool)},
    {OPT_INFO("buffered", NULL, "bool", "0", "The inverse of direct: buffered=1 is direct=0."),
     .set = opt_set_buffered},
    {OPT_INFO("ioengine", NULL, "enum", "io_uring",
              "How I/O is issued.  A job on a --target defaults to io_uring; a job that "
              "runs where fio would (filename= names paths, directory= is set, or no file "
              "and no --target) defaults to psync, fio's default.  The engines: io_uring; libaio "
              "(Linux native AIO through libaio); posixaio (POSIX AIO: aio_read, aio_write and "
              "aio_fsync, run by the C library's helper threads); psync, "
              "sync, pvsync, pvsync2 (one synchronous call per I/O, so iodepth is 1 in "
              "effect); null (no I/O at all: a null() target of the job's size); falloc "
              "(each read is fallocate(2) keeping the size, each write one growing it, each "
              "trim a hole punched) and ftruncate (each write truncates the file to its "
              "offset), on one file, as fio's; filecreate, filestat, filedelete, dircreate, "
              "dirstat, dirdelete (each I/O creates, stats or deletes one of the nrfiles "
              "files or folders, a fileops() target: IOPS are operations per second); cpuio "
              "(burns cpuload percent of a CPU, a cpu() target) and exec (runs program= for "
              "the runtime, an exec() target), whose I/Os are counted and timed but move no "
              "bytes, as fio's; pmemblk (libpmemblk's block pool in a plain file, "
              "filename=PATH,BSIZE,POOLMIB, a pmemblk() target; only if raidlab was built "
              "with libpmemblk); net "
              "(a stream over a TCP, UDP or unix socket to or from a peer, a net() "
              "target: a write sends a block, a read receives one; see hostname, port, "
              "protocol, listen); mmap (the file mapped into memory and each I/O a copy to "
              "or from it, a sync msync(2); with direct=1 each write is msynced and its "
              "pages dropped, as fio's); nbd (an NBD server's export through libnbd, "
              "named by uri=, an nbd() target: a connection per job, iodepth commands in "
              "flight on it, as fio's; only if raidlab was built with libnbd)."),
     .set = opt_set_engine, .choices = opt_engine_choices},
    {OPT_INFO("uri", NULL, "str", "",
              "ioengine=nbd: the NBD server's URI (nbd://HOST[:PORT][/EXPORT], "
              "nbd+unix:///?socket=PATH).  Required with ioengine=nbd, read as libnbd reads "
              "it.  The job's file is the export: its size is the export's."),
     .set = opt_set_path, .off = OPT_OFF(nbd_uri, char[WL_PATH_MAX])},
    {OPT_INFO("cpuload", NULL, "int", "",
              "ioengine=cpuio (required there): the share of a CPU each job burns, 1 to 100 "
              "percent.  After each burn the job idles for the burn's time x (100 - cpuload) "
              "/ cpuload, as fio."),
     .set = opt_set_u32, .off = OPT_OFF(cpuload, uint32_t), .min = 1, .max = 100},
    {OPT_INFO("cpuchunks", NULL, "int", "50000",
              "ioengine=cpuio: microseconds of one burn (one I/O of the job), 1 to 60000000."),
     .set = opt_set_u32, .off = OPT_OFF(cpuchunks_us, uint32_t), .min = 1, .max = 60000000},
    {OPT_INFO("cpumode", NULL, "enum", "noop",
              "ioengine=cpuio: noop spins for cpuchunks; qsort sorts 256 Ki random integers "
              "four times per burn (fio's stress; its length is what it takes)."),
     .set = opt_set_cpumode},
    {OPT_INFO("exit_on_io_done", NULL, "bool", "0",
              "ioengine=cpuio: end the job as soon as the jobs of its group that do I/O "
              "have ended (at once if there are none), instead of at its runtime."),
     .set = opt_set_bool, .off = OPT_OFF(cpu_exit_io_done, bool)},
    {OPT_INFO("program", NULL, "str", "",
              "ioengine=exec (required there): the program to run for the job's runtime, "
              "found through PATH.  At the runtime's end it gets SIGTERM, grace_time later "
              "SIGKILL."),
     .set = opt_set_path, .off = OPT_OFF(exec_program, char[WL_PATH_MAX])},
    {OPT_INFO("arguments", NULL, "str", "",
              "ioengine=exec: the program's arguments, split at spaces (no quoting, as "
              "fio); %r becomes the runtime in whole seconds, %n the job's name."),
     .set = opt_set_path, .off = OPT_OFF(exec_args, char[WL_PATH_MAX])},
    {OPT_INFO("grace_time", NULL, "int", "1",
              "ioengine=exec: seconds between the SIGTERM at the runtime's end and the "
              "SIGKILL, 0 to 3600; the job waits for the program to exit within it."),
     .set = opt_set_u32, .off = OPT_OFF(exec_grace_s, uint32_t), .min = 0, .max = 3600},
    {OPT_INFO("std_redirect", NULL, "bool", "1",
              "ioengine=exec: the program's standard output and error go to the files "
              "JOBNAME.stdout and JOBNAME.stderr in the current folder; 0: to raidlab's."),
     .set = opt_set_bool, .off = OPT_OFF(exec_redirect, bool)},
    {OPT_INFO("hostname", NULL, "str", "",
              "ioengine=net: the host a sender connects or sends to (a name or an address), "
              "or the UDP multicast group (224.0.0.0 to 239.255.255.255) a sender sends to "
              "and a receiver joins; the same as filename=HOST.  A TCP receiver (listen) "
              "and a UDP receiver of unicast datagrams take none."),
     .set = opt_set_path, .off = OPT_OFF(filename, char[WL_PATH_MAX])},
    {OPT_INFO("port", NULL, "int", "",
              "ioengine=net: the TCP or UDP port (1 to 65535) to connect or send to, or to "
              "listen on; numjobs copy k uses port + k, as fio.  filename=HOST/PORT gives it "
              "too.  A unix socket has none."),
     .set = opt_set_u32, .off = OPT_OFF(net.port, uint32_t), .min = 1, .max = 65535},
    {OPT_INFO("protocol", "proto", "enum", "tcp",
              "ioengine=net: tcp, tcpv6, udp, udpv6 or unix (a UNIX domain stream socket at "
              "the path filename= names).  With UDP and unix a job goes one way: rw=read "
              "receives, rw=write sends; a UDP sender tells the receiver it starts and ends "
              "with fio's small messages, so either side may be fio."),
     .set = opt_set_net_proto},
    {OPT_INFO("listen", NULL, "bool", "0",
              "ioengine=net over TCP: be the receiver, accepting one connection on port "
              "(from any address) instead of connecting to hostname."),
     .set = opt_set_bool, .off = OPT_OFF(net.listen, bool)},
    {OPT_INFO("pingpong", NULL, "bool", "0",
              "ioengine=net: a sender waits for each block to come back from the receiver "
              "before it sends the next, and the receiver sends each block back, so a "
              "write's latency is the round trip."),
     .set = opt_set_bool, .off = OPT_OFF(net.pingpong, bool)},
    {OPT_INFO("interface", NULL, "str", "",
              "ioengine=net over UDP multicast: the IPv4 address of the interface that sends "
              "or joins the group; empty: the one the routing table picks."),
     .set = opt_set_path, .off = OPT_OFF(net.interface, char[WL_PATH_MAX])},
    {OPT_INFO("ttl", NULL, "int", "1",
              "ioengine=net: time to live (hops, 0 to 255) of outgoing UDP multicast "
              "datagrams."),
     .set = opt_set_u32, .off = OPT_OFF(net.ttl, uint32_t), .min = 0, .max = 255},
    {OPT_INFO("window_size", NULL, "int", "0",
              "ioengine=net: the socket's buffer size in bytes (SO_RCVBUF for a receiver, "
              "SO_SNDBUF for a sender, both with pingpong; the kernel caps it at its "
              "rmem_max / wmem_max); 0: the system's."),
     .set = opt_set_u32, .off = OPT_OFF(net.window_size, uint32_t), .min = 0, .max = 1u << 30},
    {OPT_INFO("mss", NULL, "int", "0",
              "ioengine=net over TCP: the maximum segment size (TCP_MAXSEG); 0: the "
              "system's."),
     .set = opt_set_u32, .off = OPT_OFF(net.mss, uint32_t), .min = 0, .max = 65535},
    {OPT_INFO("nodelay", NULL, "bool", "0",
              "ioengine=net over TCP: send each block at once (TCP_NODELAY)."),
     .set = opt_set_bool, .off = OPT_OFF(net.nodelay, bool)},
    {OPT_INFO("zero_buffers", NULL, "bool", "0",
              "Write blocks of zeros.  Excludes refill_buffers and "
              "buffer_compress_percentage."),
     .set = opt_set_bool, .off = OPT_OFF(zero_buffers, bool)},
    {OPT_INFO("refill_buffers", NULL, "bool", "0",
              "Fill every write with new random contents instead of reusing buffers."),
     .set = opt_set_bool, .off = OPT_OFF(refill_buffers, bool)},
    {OPT_INFO("buffer_compress_percentage", NULL, "percent", "0",
              "Make this share (0 to 100) of each written block compressible (repeated "
              "bytes); the rest is random."),
     .set = opt_set_percent, .off = OPT_OFF(buffer_compress_percentage, uint32_t)},
    {OPT_INFO("loops", NULL, "int", "1",
              "Times the region is covered, 1 to 1000000 (unless runtime ends the job "
              "first)."),
     .set = opt_set_u32, .off = OPT_OFF(loops, uint32_t), .min = 1, .max = OPT_LOOPS_MAX},
    {OPT_INFO("verify", NULL, "enum", "none",
              "crc32c (or crc32c-intel): write, then read back and check every block (needs "
              "a pattern that writes: write, randwrite, rw, randrw); meta: every "
              "verify_interval of a written block starts with a header naming its offset "
              "and length (checksummed), the rest is verify_pattern; a job that writes "
              "reads its blocks back, a job that reads checks every block it reads.  "
              "pattern: every byte is verify_pattern's (no header), checked the same way.  md5, "
              "crc64, crc32, crc16, crc7, sha1, sha256, sha512, sha3-224, sha3-256, "
              "sha3-384, sha3-512, xxhash: meta with that digest of each interval after its "
              "header, "
              "so data changed anywhere is found.  none or 0: off."),
     .set = opt_set_verify, .choices = opt_verify_choices},
    {OPT_INFO("verify_interval", NULL, "size", "0",
              "verify=meta and its digests (md5 ...): one header per this many bytes (a multiple "
              "of 512 that divides every block size); 0: one per block.  verify=pattern "
              "takes any value and checks whole blocks all the same."),
     .set = opt_set_size, .off = OPT_OFF(verify_interval, uint64_t)},
    {OPT_INFO("verify_pattern", NULL, "str", "",
              "verify=meta: fill blocks after their header with this pattern, repeated (0x "
              "and hex digits in the order written, or a quoted string; at most 64 "
              "bytes), and check it on read; empty: random data, only the headers are "
              "checked.  verify=pattern: the whole block is the pattern.  Given without "
              "verify=, it means verify=meta (fio writes its header and the pattern)."),
     .set = opt_set_vpattern},
    {OPT_INFO("do_verify", NULL, "bool", "1",
              "With verify: 0 writes the verifiable blocks without checking them (a later "
              "job, or run, checks them); a reading job with verify=meta checks what it "
              "reads only when this is 1."),
     .set = opt_set_bool, .off = OPT_OFF(do_verify, bool)},
    {OPT_INFO("io_size", "io_limit", "size", "0",
              "How many bytes each worker does per loop, within the region of size: less "
              "ends early, more goes round the region again (as fio); 0: the region once."),
     .set = opt_set_size, .off = OPT_OFF(io_size, uint64_t)},
    {OPT_INFO("verify_backlog", NULL, "int", "0",
              "With verify (crc32c, or meta on a writing job): after every N writes, and "
              "at the end of each loop, wait for the writes and read back and check those "
              "N blocks before writing on, so corruption is found while the job writes; "
              "no pass at the end is needed.  0: check everything at the end."),
     .set = opt_set_u32, .off = OPT_OFF(verify_backlog, uint32_t), .min = 0, .max = 1u << 20},
    {OPT_INFO("verify_backlog_batch", NULL, "int", "0",
              "verify_backlog: how many of the waiting written blocks each check reads back, "
              "oldest first (0: all of them).  The rest wait for the next check, so every "
              "block is still read back once (as fio 3.33 does)."),
     .set = opt_set_u32, .off = OPT_OFF(verify_backlog_batch, uint32_t), .min = 0, .max = 1u << 20},
    {OPT_INFO("verify_offset", NULL, "size", "0",
              "verify=meta and its digests: the header (and digest) of each interval is "
              "swapped with the bytes at this offset in it, as fio does; it must leave room "
              "for them in every interval, and 0 or at least their size.  verify=pattern has no "
              "header: no effect."),
     .set = opt_set_size, .off = OPT_OFF(verify_offset, uint64_t)},
    {OPT_INFO("verify_fatal", NULL, "bool", "0",
              "Stop the job at its first verify failure (unless continue_on_error covers "
              "verify); 0: check every block and report them all."),
     .set = opt_set_bool, .off = OPT_OFF(verify_fatal, bool)},
    {OPT_INFO("verify_dump", NULL, "bool", "0",
              "Write each block that fails verification (up to 10 per worker) to "
              "JOB.OFFSET.received in the current directory, and for crc32c what was "
              "expected to JOB.OFFSET.expected, as fio does."),
     .set = opt_set_bool, .off = OPT_OFF(verify_dump, bool)},
    {OPT_INFO("verify_async", NULL, "int", "0",
              "Accepted for fio job files (0 to 64): fio's threads that verify apart from "
              "the submitting one.  raidlab checks a block in the completion path of its "
              "worker, which already overlaps with the worker's other requests."),
     .set = opt_set_u32_accepted, .min = 0, .max = 64},
    {OPT_INFO("fill_device", "fill_fs", "bool", "0",
              "A write that fails with ENOSPC or EDQUOT ends the job as done, not as an "
              "error (the device or file system is full); with size 0 the job writes to "
              "the end of the target."),
     .set = opt_set_bool, .off = OPT_OFF(fill_device, bool)},
    {OPT_INFO("fallocate", NULL, "enum", "native",
              "How a file the job creates (or lays out again) reserves its blocks first, "
              "as fio: native fallocate(2), posix posix_fallocate(3), keep fallocate(2) "
              "keeping the size, truncate ftruncate(2), none (or 0) nothing, 1 posix.  "
              "Then a file a job reads is written in full; one the jobs only write is "
              "only sized (ftruncate), so with none it stays sparse."),
     .set = opt_set_fallocate},
    {OPT_INFO("create_on_open", NULL, "bool", "0",
              "raidlab creates a job's missing files before the run starts (and removes "
              "them at its end unless --keep), whether or not fio would have waited for "
              "the job's open().  1: an existing file shorter than the job's offset+size "
              "is not laid out again (as fio, which then fails the job at the end of the "
              "file); raidlab refuses it before the run."),
     .set = opt_set_bool, .off = OPT_OFF(create_on_open, bool)},
    {OPT_INFO("create_serialize", NULL, "bool", "1",
              "Accepted for fio job files: raidlab creates and lays out every job's files "
              "one after another before any job starts, so creation is always serialized."),
     .set = opt_set_bool_accepted},
    {OPT_INFO("filename_format", NULL, "str", "$jobname.$jobnum.$filenum",
              "Name of the files of a job that gives no filename: $jobname, $jobnum (the "
              "numjobs copy, from 0) and $filenum (from 0) are replaced, as in fio; the "
              "files go in directory= or the current folder."),
     .set = opt_set_path, .off = OPT_OFF(filename_format, char[WL_PATH_MAX])},
    {OPT_INFO("nrfiles", NULL, "int", "1",
              "Files each copy of a job without filename= uses, 1 to 16777216, named by "
              "filename_format; size (or filesize each) is shared among them.  "
              "file_service_type picks the file of each I/O (a job file's target spec "
              "holds at most about a hundred; the filecreate ... dirdelete engines take "
              "any number)."),
     .set = opt_set_u32, .off = OPT_OFF(nrfiles, uint32_t), .min = 1, .max = 1u << 24},
    {OPT_INFO("openfiles", NULL, "int", "1",
              "Accepted for fio job files (1 or more): raidlab keeps all of a job's files "
              "open for the whole run."),
     .set = opt_set_u32_accepted, .min = 1, .max = UINT32_MAX},
    {OPT_INFO("file_service_type", NULL, "str", "roundrobin",
              "How a job with several files (filename=A:B, nrfiles) picks the file of each "
              "I/O, as fio: roundrobin:N each file in turn for N I/Os (N 1 by default), "
              "random:N a random file for N I/Os, sequential one file until its share is "
              "done, then the next.  Each file has its own offsets (its own sequential "
              "position or random map).  zipf, pareto, normal and gauss are accepted and "
              "pick files like random.  A job with verify, offset or offset_increment "
              "keeps its files as one region."),
     .set = opt_set_file_service},
    {OPT_INFO("allow_file_create", NULL, "bool", "1",
              "0: a file the job names must exist; raidlab does not create it and the run "
              "fails naming it."),
     .set = opt_set_bool, .off = OPT_OFF(allow_file_create, bool)},
    {OPT_INFO("unlink", NULL, "bool", "0",
              "1: remove the job's regular files when the run ends, also those that "
              "existed before it.  0: files a job lays out where fio would (filename= "
              "paths, directory=, fio's default file) stay, as in fio; files raidlab "
              "creates for a --target spec are removed unless --keep.  Block devices are "
              "never removed."),
     .set = opt_set_bool, .off = OPT_OFF(unlink_files, bool)},
    {OPT_INFO("unlink_each_loop", NULL, "bool", "0",
              "1: as unlink=1.  raidlab keeps its files open across loops, so they are "
              "removed once, when the run ends."),
     .set = opt_set_bool_on, .off = OPT_OFF(unlink_files, bool)},
    {OPT_INFO("overwrite", NULL, "bool", "0",
              "Accepted for fio job files: raidlab creates a missing file in full before "
              "the job runs, so writes go to blocks that exist, as fio's overwrite=1."),
     .set = opt_set_bool_accepted},
    {OPT_INFO("pre_read", NULL, "bool", "0",
              "1: leave the page cache as it is (invalidate=0), as fio's pre_read does.  "
              "The files are not read ahead of the job."),
     .set = opt_set_pre_read},
    {OPT_INFO("fsync_on_close", NULL, "bool", "0",
              "1: flush the file when the job ends, as end_fsync=1 (raidlab closes its "
              "files once, at the end)."),
     .set = opt_set_bool_on, .off = OPT_OFF(end_fsync, bool)},
    {OPT_INFO("scramble_buffers", NULL, "bool", "1",
              "Stamp every 512-byte sector of each write with its offset and the time it "
              "is issued, so that no two writes carry the same data and a deduplicating "
              "device cannot skip them, as fio does.  Not done where the contents are "
              "set otherwise: verify, refill_buffers, buffer_pattern, "
              "buffer_compress_percentage, dedupe_percentage, and zero_buffers unless "
              "scramble_buffers is also given."),
     .set = opt_set_scramble},
    {OPT_INFO("buffer_pattern", NULL, "str", "",
              "What every write carries: 0x and hex digits or a quoted string, at most 64 "
              "bytes, repeated from the start of each block (fio's buffer_pattern).  "
              "verify and dedupe_percentage fill their blocks their own way."),
     .set = opt_set_bpattern},
    {OPT_INFO("verify_only", NULL, "bool", "0",
              "Do not write: replay the job's write sequence and check the blocks that an "
              "earlier run of the same job (same options and randseed) wrote.  Needs verify."),
     .set = opt_set_bool, .off = OPT_OFF(verify_only, bool)},
    {OPT_INFO("randseed", NULL, "int", "1",
              "Seed of the random generators (0 to 2^64-1, decimal or 0x hex); fixed by "
              "default so runs repeat."),
     .set = opt_set_u64, .off = OPT_OFF(seed, uint64_t), .min = 0, .max = UINT64_MAX},
    {OPT_INFO("norandommap", NULL, "bool", "0",
              "Random patterns pick offsets without remembering which blocks were done, so "
              "some repeat and others are missed in a loop.  No effect on sequential "
              "patterns."),
     .set = opt_set_bool, .off = OPT_OFF(norandommap, bool)},
    {OPT_INFO("log_avg_msec", NULL, "msec", "0",
              "0 (fio's default): write_bw_log, write_iops_log and write_lat_log get one "
              "line per I/O, and the result's time series has 100 ms intervals.  1 to "
              "3600000: both average over intervals of this many milliseconds."),
     .set = opt_set_log_avg},
    {OPT_INFO("stonewall", "wait_for_previous", "bool", "0",
              "Wait for the jobs before this one to finish, then start a new group (as "
              "fio).  Without it the jobs of a file run at the same time."),
     .set = opt_set_bool, .off = OPT_OFF(stonewall, bool)},
    {OPT_INFO("new_group", NULL, "bool", "0",
              "Start a new reporting group with this job (as fio); it still runs alongside "
              "the jobs before it unless stonewall is set too."),
     .set = opt_set_bool, .off = OPT_OFF(new_group, bool)},
    {OPT_INFO("group_reporting", NULL, "bool", "0",
              "Report the jobs of a group (and the clones of numjobs) together as one."),
     .set = opt_set_bool, .off = OPT_OFF(group_reporting, bool)},
    {OPT_INFO("filename", NULL, "str", "",
              "Where the job does I/O: a file or block device, several separated by ':' "
              "(used one after another, like concat()), or a target spec such as "
              "mem(size=1g).  A missing file is created with the job's size.  Overrides "
              "--target for this job."),
     .set = opt_set_path, .off = OPT_OFF(filename, char[WL_PATH_MAX])},
    {OPT_INFO("directory", NULL, "str", "",
              "Directory of the job's files: without filename each clone k of numjobs gets "
              "its own file JOBNAME.k.0 there (as fio); with filename, the file is taken "
              "relative to it."),
     .set = opt_set_path, .off = OPT_OFF(directory, char[WL_PATH_MAX])},
    {OPT_INFO("description", NULL, "str", "",
              "Free text describing the job; accepted and not used."),
     .set = opt_set_text},
    {OPT_INFO("thread", "threads", "bool", "1",
              "Accepted for fio job files: raidlab's workers are always threads; thread=0 is "
              "an error."),
     .set = opt_set_thread},
    {OPT_INFO("randrepeat", NULL, "bool", "1",
              "1: the random sequences repeat from run to run (from randseed); 0: they are "
              "seeded from the clock."),
     .set = opt_set_bool, .off = OPT_OFF(randrepeat, bool)},
    {OPT_INFO("fsync", NULL, "int", "0",
              "After every N writes, flush the target (fsync(2) on a file, a FLUSH down an "
              "array or simulated drive) before the next request; 0: never.  Each sync is "
              "timed: fio's sync figures (JSON \"sync\", the normal output's sync lines)."),
     .set = opt_set_u32, .off = OPT_OFF(fsync_n, uint32_t), .min = 0, .max = 1u << 30},
    {OPT_INFO("fdatasync", NULL, "int", "0",
              "As fsync, with fdatasync(2) on a file; its syncs are timed as fsync's, and, as "
              "in fio, not counted in the JSON sync \"total_ios\"."),
     .set = opt_set_u32, .off = OPT_OFF(fdatasync_n, uint32_t), .min = 0, .max = 1u << 30},
    {OPT_INFO("sync", NULL, "enum", "0",
              "1, sync or dsync: every write is durable when it completes (FUA: RWF_DSYNC on "
              "files); 0 or none: off."),
     .set = opt_set_sync},
    {OPT_INFO("end_fsync", NULL, "bool", "0",
              "Flush the target once when the job's writes are done (counted in its time)."),
     .set = opt_set_bool, .off = OPT_OFF(end_fsync, bool)},
    {OPT_INFO("startdelay", NULL, "time", "0",
              "Start the job this long after its group starts (a plain number is seconds)."),
     .set = opt_set_time, .off = OPT_OFF(startdelay_ns, uint64_t)},
    {OPT_INFO("write_bw_log", NULL, "str", "",
              "Write fio's bandwidth log NAME_bw.N.log (N: the job's number in the file, from "
              "1, each numjobs copy a number and a log of its own): 'msec, KiB/s, direction, bs, "
              "prio', a line per I/O (its bytes over its "
              "completion latency, as fio) or with log_avg_msec one per interval and "
              "direction (bs 0).  Without a NAME the job's name is used."),
     .set = opt_set_log, .off = OPT_OFF(bw_log_name, char[WL_LOGNAME_MAX])},
    {OPT_INFO("write_lat_log", NULL, "str", "",
              "Write fio's latency logs NAME_lat.N.log, NAME_clat.N.log and NAME_slat.N.log "
              "in ns: each I/O's total, completion and submission latency, or with "
              "log_avg_msec the mean latency of each interval (lat and clat; slat 0)."),
     .set = opt_set_log, .off = OPT_OFF(lat_log_name, char[WL_LOGNAME_MAX])},
    {OPT_INFO("write_hist_log", NULL, "str", "",
              "Write fio's latency histogram log NAME_clat_hist.N.log: per log_hist_msec "
              "interval and direction, 'msec, direction, bs, ' and the counts of fio's "
              "1856 latency bins (ns, 64 per power of two) of that interval, which fio's "
              "fiologparser_hist.py reads."),
     .set = opt_set_log, .off = OPT_OFF(hist_log_name, char[WL_LOGNAME_MAX])},
    {OPT_INFO("log_hist_msec", NULL, "int", "0",
              "The interval of write_hist_log's lines in ms; 0: no lines (fio then leaves "
              "the log empty too)."),
     .set = opt_set_u32, .off = OPT_OFF(log_hist_msec, uint32_t), .min = 0, .max = 3600000},
    {OPT_INFO("log_hist_coarseness", NULL, "int", "0",
              "0 to 6: write_hist_log sums 2^N neighbouring bins, 1856, 928 ... 29 per "
              "line, as fio."),
     .set = opt_set_u32, .off = OPT_OFF(log_hist_coarseness, uint32_t), .min = 0, .max = 6},
    {OPT_INFO("write_iops_log", NULL, "str", "",
              "Write fio's IOPS log NAME_iops.N.log: a line of 1 per I/O, or with "
              "log_avg_msec the I/Os per second of each interval."),
     .set = opt_set_log, .off = OPT_OFF(iops_log_name, char[WL_LOGNAME_MAX])},
    {OPT_INFO("log_offset", NULL, "bool", "0",
              "1: fio's logs get an offset column before the priority: each I/O's offset, "
              "or 0 on lines averaged over log_avg_msec, as fio."),
     .set = opt_set_bool, .off = OPT_OFF(log_offset, bool)},
    {OPT_INFO("per_job_logs", NULL, "bool", "1",
              "0: every job writes its lines to one log NAME_bw.log (no job number), as "
              "fio does."),
     .set = opt_set_bool, .off = OPT_OFF(per_job_logs, bool)},
    {OPT_INFO("unified_rw_reporting", NULL, "enum", "none",
              "fio's JSON and normal output: none (or 0): read, write and trim apart; "
              "mixed (or 1): one \"mixed\" direction summing them, instead; both (or "
              "2): both.  raidlab's own table (--target) and terse output keep the "
              "directions apart."),
     .set = opt_set_unified_rw},
    {OPT_INFO("kb_base", NULL, "int", "1024",
              "1024 or 1000, as fio's (shown in fio's \"job options\").  Sizes given to "
              "options keep their meaning (k is 1024, kB 1000), as fio 3.33's do on the "
              "command line, and JSON and terse are unchanged, as in fio; the normal "
              "output then leads with kB and MB/s, as fio's; raidlab's own table "
              "(--target) is always in decimal MB/s."),
     .set = opt_set_kb_base},
    {OPT_INFO("significant_figures", NULL, "int", "4",
              "1 to 10: the digits fio's normal output gives its figures with a unit "
              "(IOPS, bandwidths, sizes; 12.3MiB/s with 3), as fio's.  JSON and terse "
              "carry full figures, as in fio; raidlab's own table (--target) has fixed "
              "decimals."),
     .set = opt_set_u32, .off = OPT_OFF(sig_figs, uint32_t), .min = 1, .max = 10},
    {OPT_INFO("rate", NULL, "str", "0",
              "Cap the job's bandwidth: READ[,WRITE[,TRIM]] bytes per second (10m,2m); one "
              "value caps every direction; 0 or empty: no cap.  Requests wait for their "
              "turn, as in fio."),
     .set = opt_set_rate, .off = OPT_OFF(rate, uint64_t[3])},
    {OPT_INFO("rate_process", NULL, "enum", "linear",
              "How rate and rate_iops space requests: linear (evenly) or poisson (random "
              "gaps with the same mean, as arrivals from many independent users)."),
     .set = opt_set_rate_process},
    {OPT_INFO("io_submit_mode", NULL, "enum", "inline",
              "Accepted for fio job files: inline or offload.  raidlab's rate pacing already "
              "issues each request at its scheduled time whenever a slot is free, which is "
              "what fio's offload mode is for."),
     .set = opt_set_submit_mode},
    {OPT_INFO("rate_iops", NULL, "str", "0",
              "Cap the job's I/Os per second, READ[,WRITE[,TRIM]] as for rate."),
     .set = opt_set_rate, .off = OPT_OFF(rate_iops, uint64_t[3])},
    {OPT_INFO("rate_min", "ratemin", "str", "0",
              "The job fails (exit status 1, naming the direction) if it ends slower than "
              "this many bytes per second, READ[,WRITE[,TRIM]] as for rate."),
     .set = opt_set_rate, .off = OPT_OFF(rate_min, uint64_t[3])},
    {OPT_INFO("read_iolog", "trace", "str", "",
              "Replay this trace instead of rw/bs/size: a fio iolog v2 or v3, blkparse text "
              "or the kernel blk tracer's text (docs/traces.md).  Without filename= or a "
              "target, an iolog's requests go to the files it names (created at the size "
              "the trace needs if missing).  Offsets beyond a file or the region wrap "
              "round it; loops repeats the trace."),
     .set = opt_set_path, .off = OPT_OFF(read_iolog, char[WL_PATH_MAX])},
    {OPT_INFO("write_iolog", NULL, "str", "",
              "Append the job's requests to this file as fio's iolog version 3 (the "
              "version line, add/open/close lines and TIMESTAMP FILE ACTION OFFSET "
              "LENGTH per request, times in microseconds), which fio and read_iolog "
              "replay.  Each numjobs copy appends its own log, as fio."),
     .set = opt_set_path, .off = OPT_OFF(write_iolog, char[WL_PATH_MAX])},
    {OPT_INFO("replay_redirect", NULL, "str", "",
              "read_iolog: send the requests of every file the trace names to this one "
              "file or device (without it, each goes to its own file, as fio)."),
     .set = opt_set_path, .off = OPT_OFF(replay_redirect, char[WL_PATH_MAX])},
    {OPT_INFO("replay_no_stall", NULL, "bool", "0",
              "read_iolog: issue the requests as fast as possible, in order, instead of at "
              "their recorded times."),
     .set = opt_set_bool, .off = OPT_OFF(replay_no_stall, bool)},
    {OPT_INFO("replay_time_scale", NULL, "int", "100",
              "read_iolog: run at this percentage of the recorded rate (200: twice as fast)."),
     .set = opt_set_u32, .off = OPT_OFF(replay_time_scale, uint32_t), .min = 1, .max = 1000000},
    {OPT_INFO("thinktime", NULL, "str", "0",
              "Pause this long after each I/O completes before its slot issues the next "
              "(a plain number is microseconds, as in fio; or 2ms, 1s)."),
     .set = opt_set_usec, .off = OPT_OFF(thinktime_ns, uint64_t), .max = UINT64_MAX},
    {OPT_INFO("number_ios", NULL, "int", "0",
              "Stop the job after this many I/Os (counted over all its clones' own); 0: no "
              "limit."),
     .set = opt_set_u64, .off = OPT_OFF(number_ios, uint64_t), .min = 0, .max = UINT64_MAX},
    {OPT_INFO("filesize", NULL, "size", "0",
              "Size of the files the job creates (filename= / directory=); 0: offset + size."),
     .set = opt_set_size, .off = OPT_OFF(filesize, uint64_t)},
    {OPT_INFO("zonemode", NULL, "enum", "none",
              "strided: I/O stays in a zone of zonerange bytes until zonesize bytes went "
              "there, then skips zoneskip bytes past the zone to the next one (back to the "
              "start past the end), as fio; none: the zone options are ignored.  zbd (a "
              "zoned device) is refused."),
     .set = opt_set_zonemode},
    {OPT_INFO("zonerange", NULL, "size", "0", "zonemode=strided: the size of a zone; 0: zonesize."),
     .set = opt_set_size, .off = OPT_OFF(zone_range, uint64_t)},
    {OPT_INFO("zonesize", NULL, "size", "0",
              "zonemode=strided: bytes transferred in a zone before moving on (more than "
              "zonerange: the zone is gone over again)."),
     .set = opt_set_size, .off = OPT_OFF(zone_size, uint64_t)},
    {OPT_INFO("zoneskip", NULL, "size", "0",
              "zonemode=strided: bytes skipped after a zone's zonesize bytes."),
     .set = opt_set_size, .off = OPT_OFF(zone_skip, uint64_t)},
    {OPT_INFO("wait_for", NULL, "str", "",
              "Start this job only when the earlier job of that name has finished (it runs "
              "in the wave after that job's)."),
     .set = opt_set_wait_for},
    {OPT_INFO("exit_what", NULL, "enum", "group",
              "What an exitall job stops when it ends: group (the jobs running with it), "
              "stonewall (the same here) or all (also the jobs that have not started)."),
     .set = opt_set_exit_what},
    {OPT_INFO("clocksource", NULL, "enum", "clock_gettime",
              "Accepted for fio job files (gettimeofday, clock_gettime, cpu): raidlab times "
              "every request with clock_gettime(CLOCK_MONOTONIC), whichever is named."),
     .set = opt_set_clocksource},
    {OPT_INFO("disk_util", NULL, "bool", "1",
              "0: leave the job's devices out of the Disk stats (fio's disk_util); when no "
              "job keeps them the Disk stats section and JSON disk_util are empty."),
     .set = opt_set_bool, .off = OPT_OFF(disk_util, bool)},
    {OPT_INFO("create_only", NULL, "bool", "0",
              "1: lay out the job's files and do no I/O, as fio (every job of the run must "
              "say it: a run either lays out or measures)."),
     .set = opt_set_bool, .off = OPT_OFF(create_only, bool)},
    {OPT_INFO("allow_mounted_write", NULL, "bool", "0",
              "0 only: raidlab never writes over a device in use unless --force-destroy is "
              "given on the command line, and a job option cannot lift that."),
     .set = opt_set_mounted_write},
    {OPT_INFO("random_generator", NULL, "enum", "tausworthe",
              "tausworthe, lfsr or tausworthe64: raidlab always uses its own generator "
              "(xoshiro256**); lfsr keeps fio's promise that every block is used once per "
              "loop (and per zonerange pass with zonemode=strided) even with norandommap."),
     .set = opt_set_generator},
    {OPT_INFO("percentile_list", NULL, "str", "",
              "The latency percentiles fio's JSON and terse output report, separated by ':' "
              "(99:99.9:99.99), up to 20; empty: fio's default list."),
     .set = opt_set_pct_list},
    {OPT_INFO("clat_percentiles", NULL, "bool", "1",
              "Report percentiles of the completion latency (clat), as fio: the normal "
              "output's \"clat percentiles\" rows, JSON's clat_ns percentile (and bins with "
              "json+), terse's percentile fields.  0: none of them (disable_clat implies 0)."),
     .set = opt_set_bool, .off = OPT_OFF(clat_pcts, bool)},
    {OPT_INFO("lat_percentiles", NULL, "bool", "0",
              "Report percentiles of the total latency (lat = slat + clat), as fio: \"lat "
              "percentiles\" rows, JSON's lat_ns percentile; terse's percentile fields then "
              "hold lat's instead of clat's (disable_lat implies 0)."),
     .set = opt_set_bool, .off = OPT_OFF(lat_pcts, bool)},
    {OPT_INFO("slat_percentiles", NULL, "bool", "0",
              "Report percentiles of the submission latency, as fio: \"slat percentiles\" "
              "rows and JSON's slat_ns percentile, when the engine measures slat (io_uring, "
              "libaio; disable_slat implies 0)."),
     .set = opt_set_bool, .off = OPT_OFF(slat_pcts, bool)},
    {OPT_INFO("disable_lat", NULL, "bool", "0",
              "Leave out the total latency (lat), as fio: JSON's lat_ns and terse's lat "
              "fields are zero, the normal output has no \" lat\" line, write_lat_log "
              "writes no NAME_lat log."),
     .set = opt_set_bool, .off = OPT_OFF(disable_lat, bool)},
    {OPT_INFO("disable_clat", NULL, "bool", "0",
              "Leave out the completion latency (clat), as fio: JSON's clat_ns (no "
              "percentiles or bins) and the latency_ns/us/ms shares, terse's clat fields "
              "and percentiles (all \"0%=0\") and latency shares are zero; the normal "
              "output has no clat, percentile or \"lat (usec)\" rows; write_lat_log "
              "writes no NAME_clat log."),
     .set = opt_set_bool, .off = OPT_OFF(disable_clat, bool)},
    {OPT_INFO("disable_slat", NULL, "bool", "0",
              "Do not measure the submission latency, as fio: no slat line, JSON's slat_ns "
              "and terse's slat fields are zero, write_lat_log writes no NAME_slat log."),
     .set = opt_set_bool, .off = OPT_OFF(disable_slat, bool)},
    {OPT_INFO("disable_bw_measurement", "disable_bw", "bool", "0",
              "As fio 3.33 uses it: it changes no figure and no averaged log, only leaves "
              "a per-I/O bandwidth log (log_avg_msec=0) empty."),
     .set = opt_set_bool, .off = OPT_OFF(disable_bw, bool)},
    {OPT_INFO("cpus_allowed", NULL, "str", "",
              "The CPUs the job's worker threads may run on: numbers and ranges from 0 to 63 "
              "(0-3,6); empty: any."),
     .set = opt_set_cpus},
    {OPT_INFO("cpus_allowed_policy", NULL, "enum", "shared",
              "shared: every worker may use all of cpus_allowed; split: worker k runs on the "
              "k-th CPU of the set (round robin)."),
     .set = opt_set_cpus_policy},
    {OPT_INFO("mem", "iomem", "enum", "malloc",
              "Where the I/O buffers live: malloc or mmap (ordinary pages, as fio's "
              "default), or mmaphuge (transparent huge pages: a 1 MiB buffer is one "
              "physically contiguous segment, so large requests are not split at the "
              "device's segment limit).  With malloc, a job whose I/O reaches no O_DIRECT "
              "descriptor gets the allocator's alignment, as in fio (16 bytes past a page "
              "boundary for large regions), which makes copies to and from the page cache "
              "slower; see mem_align."),
     .set = opt_set_mem},
    {OPT_INFO("mem_align", "iomem_align", "int", "0",
              "Start the I/O buffers this many bytes past a page boundary (0 with O_DIRECT: "
              "page aligned).  Setting it page-aligns buffered jobs' buffers too.  With "
              "O_DIRECT it must be a multiple of the target's block alignment."),
     .set = opt_set_u32, .off = OPT_OFF(mem_align, uint32_t), .min = 0, .max = 1u << 20},
    {OPT_INFO("gtod_reduce", NULL, "bool", "0",
              "Accepted for fio job files: fio's way of reading the clock less often.  "
              "raidlab reads it once per I/O anyway, so there is nothing to reduce."),
     .set = opt_set_bool_accepted},
    {OPT_INFO("blockalign", "ba", "size", "0",
              "Align random offsets to this many bytes (a multiple of 512); 0: to the "
              "smallest block size, as in fio."),
     .set = opt_set_size, .off = OPT_OFF(blockalign, uint64_t), .align = WL_BS_MIN},
    {OPT_INFO("exitall", NULL, "bool", "0",
              "When this job finishes, stop the other jobs of its group (as fio)."),
     .set = opt_set_bool, .off = OPT_OFF(exitall, bool)},
    {OPT_INFO("invalidate", NULL, "bool", "1",
              "Drop a buffered file's page cache when the job starts and at every pass "
              "over the region (fio reopens its files each pass, invalidating them), so "
              "reads come from the device; dirty pages are queued for writeback first."),
     .set = opt_set_bool, .off = OPT_OFF(invalidate, bool)},
    {OPT_INFO("flow", NULL, "int", "0",
              "Weight in flow control (0 to 1000): jobs of one flow_id that run at the same "
              "time issue I/Os in the ratio of their weights (flow=2 against flow=1: 2:1); a "
              "job ahead of its share waits flow_sleep and tries again.  0: off."),
     .set = opt_set_u32, .off = OPT_OFF(flow, uint32_t), .min = 0, .max = 1000},
    {OPT_INFO("flow_id", NULL, "int", "0",
              "The flow group whose jobs flow= keeps in ratio; default 0 (one global flow)."),
     .set = opt_set_u32, .off = OPT_OFF(flow_id, uint32_t), .min = 0, .max = UINT32_MAX},
    {OPT_INFO("flow_sleep", NULL, "str", "0",
              "How long a job ahead of its flow share waits before it tries again (a plain "
              "number is microseconds); 0: it tries again as soon as another request of "
              "the group completes (raidlab waits 10 us)."),
     .set = opt_set_usec, .off = OPT_OFF(flow_sleep_ns, uint64_t), .max = 60000000000ull},
    {OPT_INFO("latency_target", NULL, "str", "0",
              "Search the highest queue depth (up to iodepth) at which latency_percentile "
              "of the I/Os complete within this time (a plain number is microseconds), "
              "trying one depth per latency_window as fio: start at 1, double while it "
              "holds, halve towards the last good depth when it fails; once the depth "
              "settles the statistics restart and the job ends after one more window at "
              "it.  The depth found is reported as fio's latency_depth.  0: off."),
     .set = opt_set_usec, .off = OPT_OFF(lat_target_ns, uint64_t), .max = 3600000000000ull},
    {OPT_INFO("latency_window", NULL, "str", "0",
              "With latency_target: how long each depth is tried (a plain number is "
              "microseconds)."),
     .set = opt_set_usec, .off = OPT_OFF(lat_window_ns, uint64_t), .max = 3600000000000ull},
    {OPT_INFO("latency_percentile", NULL, "float", "100",
              "With latency_target: the share of I/Os (percent) that must complete within "
              "the target; 100: every I/O (one late I/O lowers the depth at once)."),
     .set = opt_set_lat_pct},
    {OPT_INFO("latency_run", NULL, "bool", "0",
              "With latency_target: keep adjusting the depth for the whole run instead of "
              "ending once it settles."),
     .set = opt_set_bool, .off = OPT_OFF(lat_run, bool)},
    {OPT_INFO("ss", "steadystate", "str", "iops_slope:0.01%",
              "Steady state criterion: iops, bw or lat (the largest deviation from the "
              "window's mean) or iops_slope, bw_slope, lat_slope (least squares slope), "
              "':' and a limit, a percentage of the mean with '%'.  When it holds over "
              "ss_dur the job ends (with group_reporting its clones are judged and ended "
              "together) and fio's steadystate block is reported.  Needs ss_dur."),
     .set = opt_set_ss},
    {OPT_INFO("ss_dur", "steadystate_duration", "time", "0",
              "The rolling window steady state is judged over (a plain number is seconds); "
              "0: no steady state detection."),
     .set = opt_set_time, .off = OPT_OFF(ss_dur_ns, uint64_t)},
    {OPT_INFO("ss_ramp", "steadystate_ramp_time", "time", "0",
              "Run this long before collecting steady state samples (a plain number is "
              "seconds)."),
     .set = opt_set_time, .off = OPT_OFF(ss_ramp_ns, uint64_t)},
    {OPT_INFO("ss_interval", "steadystate_check_interval", "time", "1s",
              "One steady state sample per this long (a plain number is seconds); ss_dur "
              "holds ss_dur / ss_interval samples."),
     .set = opt_set_time, .off = OPT_OFF(ss_interval_ns, uint64_t)},
    {OPT_INFO("numa_cpu_nodes", NULL, "str", "",
              "Run the job's worker threads on the CPUs of these NUMA nodes (0-1,3 or all; "
              "the CPUs are read from /sys/devices/system/node).  A listed node this "
              "machine lacks is named in a warning; none present is an error."),
     .set = opt_set_numa_nodes},
    {OPT_INFO("numa_mem_policy", NULL, "str", "",
              "Memory policy of the job's worker threads, set before their buffers are "
              "allocated (set_mempolicy): default, local, prefer:NODE, bind:NODES or "
              "interleave:NODES."),
     .set = opt_set_numa_mpol},
    {OPT_INFO("prio", NULL, "int", "",
              "The job's I/O priority level, 0 (highest) to 7, on every request (and on its "
              "threads with ioprio_set); in the best effort class unless prioclass is set."),
     .set = opt_set_prio},
    {OPT_INFO("prioclass", NULL, "int", "0",
              "The job's I/O priority class: 1 real time, 2 best effort, 3 idle; 0: none "
              "(the kernel's default).  See ionice(1)."),
     .set = opt_set_u32, .off = OPT_OFF(prio_class, uint32_t), .min = 0, .max = 3},
    {OPT_INFO("cmdprio_percentage", NULL, "str", "0",
              "This share (percent, READ[,WRITE]) of the requests carry the priority of "
              "cmdprio_class and cmdprio instead of the job's (io_uring and libaio; it "
              "reaches file targets).  fio's per-priority latency (\"prios\") is reported."),
     .set = opt_set_pair, .off = OPT_OFF(cmdprio_pct, uint32_t[2]), .min = 0, .max = 100},
    {OPT_INFO("cmdprio_class", NULL, "str", "1",
              "The priority class of cmdprio_percentage's requests, READ[,WRITE]: 1 real "
              "time, 2 best effort, 3 idle."),
     .set = opt_set_pair, .off = OPT_OFF(cmdprio_class, uint32_t[2]), .min = 1, .max = 3},
    {OPT_INFO("cmdprio", NULL, "str", "0",
              "The priority level of cmdprio_percentage's requests, READ[,WRITE], 0 "
              "(highest) to 7."),
     .set = opt_set_pair, .off = OPT_OFF(cmdprio_level, uint32_t[2]), .min = 0, .max = 7},
    {OPT_INFO("cmdprio_bssplit", NULL, "str", "",
              "Per block size, the share of requests that carry a priority, READ[,WRITE]: "
              "BS/PCT entries separated by ':' take cmdprio_class and cmdprio "
              "(64k/30:1m/0); BS/PCT/CLASS/LEVEL[/HINT] entries their own, and one size may "
              "have several (64k/25/1/1:64k/75/3/2).  Instead of cmdprio_percentage "
              "(io_uring and libaio)."),
     .set = opt_set_cmdprio_bssplit},
    {OPT_INFO("hipri", NULL, "bool", "0",
              "io_uring: completions are polled by the ring instead of signalled by "
              "interrupts (IORING_SETUP_IOPOLL).  O_DIRECT only, and the device needs poll "
              "queues: elsewhere each request fails with EOPNOTSUPP, as in fio."),
     .set = opt_set_bool, .off = OPT_OFF(hipri, bool)},
    {OPT_INFO("sqthread_poll", NULL, "bool", "0",
              "io_uring: a kernel thread takes the submissions from the ring "
              "(IORING_SETUP_SQPOLL), so submitting needs no system call; implies "
              "registerfiles and, as fio, no submission latency is measured."),
     .set = opt_set_sqpoll},
    {OPT_INFO("sqthread_poll_cpu", NULL, "int", "",
              "io_uring: the CPU of sqthread_poll's kernel thread (IORING_SETUP_SQ_AFF)."),
     .set = opt_set_sqpoll_cpu},
    {OPT_INFO("fixedbufs", NULL, "bool", "0",
              "io_uring: the job's buffers are registered with the ring once, and reads and "
              "writes go as READ_FIXED/WRITE_FIXED, saving the kernel mapping them per "
              "request.  Locks the buffers in memory (RLIMIT_MEMLOCK)."),
     .set = opt_set_bool, .off = OPT_OFF(fixedbufs, bool)},
    {OPT_INFO("registerfiles", NULL, "bool", "0",
              "io_uring: each file is registered with the ring on its first request, and "
              "reads and writes name it by its slot (IOSQE_FIXED_FILE), saving the kernel "
              "a file table lookup per request."),
     .set = opt_set_bool, .off = OPT_OFF(registerfiles, bool)},
    {OPT_INFO("nonvectored", NULL, "int", "-1",
              "io_uring: 0 reads and writes with readv/writev of one segment; -1 (fio's "
              "default on kernels that have them) or 1 with the plain read/write "
              "opcodes."),
     .set = opt_set_nonvectored},
    {OPT_INFO("uncached", NULL, "int", "0",
              "io_uring: nonzero sets RWF_DONTCACHE on reads and writes, so buffered I/O "
              "drops its pages from the page cache once done (kernel 6.14 and later; "
              "elsewhere the requests fail with EOPNOTSUPP)."),
     .set = opt_set_u32, .off = OPT_OFF(uncached, uint32_t), .min = 0, .max = UINT32_MAX},
    {OPT_INFO("nowait", NULL, "bool", "0",
              "io_uring and libaio: RWF_NOWAIT on reads and writes: a request that would "
              "block (a buffered read of pages not cached) fails with EAGAIN instead."),
     .set = opt_set_bool, .off = OPT_OFF(nowait, bool)},
    {OPT_INFO("force_async", NULL, "int", "0",
              "io_uring: every Nth request carries IOSQE_ASYNC, so the kernel hands it to a "
              "worker thread instead of trying it inline first; 0: none."),
     .set = opt_set_u32, .off = OPT_OFF(force_async, uint32_t), .min = 0, .max = UINT32_MAX},
    {OPT_INFO("userspace_reap", NULL, "bool", "0",
              "libaio: a poll that does not wait reads finished requests from the AIO ring "
              "in user space instead of calling io_getevents (as fio)."),
     .set = opt_set_bool, .off = OPT_OFF(userspace_reap, bool)},
    {OPT_INFO("log_prio", NULL, "bool", "0",
              "The last column of write_lat_log's logs shows each sample's priority value "
              "as fio does (0x6000: class 3, level 0) instead of 1 for the real time class "
              "and 0 for others; samples of the two priorities of cmdprio_percentage are "
              "logged apart."),
     .set = opt_set_bool, .off = OPT_OFF(log_prio, bool)},
    {OPT_INFO("continue_on_error", NULL, "enum", "none",
              "Go on past errors of these kinds instead of stopping the job at the first: "
              "none (0), read, write, io (both), verify, all (1).  Only the errnos of "
              "ignore_error go past (default EIO and EILSEQ, as fio); they are counted "
              "(fio's total_err and first_error) and do not fail the run; others stop "
              "the job as usual.  Trims and flushes count as writes."),
     .set = opt_set_coe},
    {OPT_INFO("ignore_error", NULL, "str", "",
              "The errnos continue_on_error goes past, READ[,WRITE[,VERIFY]] lists of "
              "names or numbers separated by ':' (EAGAIN,ENOSPC:122); an empty list keeps "
              "the default, EIO and EILSEQ."),
     .set = opt_set_ignore_error},
    {OPT_INFO("error_dump", NULL, "bool", "1",
              "Print each error continue_on_error goes past (the first 10 of each worker); "
              "0: only count them."),
     .set = opt_set_bool, .off = OPT_OFF(error_dump, bool)},
    {OPT_INFO("dedupe_percentage", NULL, "percent", "0",
              "This share of written blocks repeats the contents of an earlier one, so "
              "deduplicating storage can drop them; the others are unique (refill_buffers "
              "is implied).  Compression options shape both alike."),
     .set = opt_set_percent, .off = OPT_OFF(dedupe_pct, uint32_t)},
    {OPT_INFO("dedupe_mode", NULL, "enum", "repeat",
              "repeat: a duplicate repeats one of the job's earlier unique blocks; "
              "working_set: it repeats one of a working set of "
              "dedupe_working_set_percentage of the region's blocks."),
     .set = opt_set_dedupe_mode},
    {OPT_INFO("dedupe_working_set_percentage", NULL, "percent", "5",
              "dedupe_mode=working_set: the working set's size as a share of the region."),
     .set = opt_set_percent, .off = OPT_OFF(dedupe_ws_pct, uint32_t)},
    {OPT_INFO("dedupe_global", NULL, "bool", "0",
              "dedupe_mode=working_set: every job with this set draws from one working set, "
              "so their duplicates also match each other's blocks."),
     .set = opt_set_bool, .off = OPT_OFF(dedupe_global, bool)},
};

/*
 * Names that are not job options but that people will try: the message says
 * what to do instead.
 */
static const struct {
	const char *name;
	const char *why;
} opt_redirects[] = {
    {"target", "the target is not a job option; give it with --target=SPEC on the command "
               "line or target=SPEC in a job file's [global] section"},
    {"merge_blktrace_file", "it merges blktrace's binary files, which raidlab does not read; "
                            "turn each into text with blkparse and replay it with read_iolog"},
    {"merge-blktrace-only", "it merges blktrace's binary files (merge_blktrace_file), which "
                            "raidlab does not read; replay blkparse text with read_iolog"},
    {"merge_blktrace_scalars", "it goes with merge_blktrace_file, which raidlab does not "
                               "support (it reads blkparse text, not blktrace's binary files)"},
    {"merge_blktrace_iters", "it goes with merge_blktrace_file, which raidlab does not "
                             "support (it reads blkparse text, not blktrace's binary files)"},
};

/* fio options that raidlab knowingly lacks (an error, not "unknown"). */
static const char *const opt_fio_unsupported[] = {
    "bs_unaligned",
    "iodepth_low",
    "percentage_random",
};

static const struct opt_def *opt_lookup(const char *name)
{
	for (size_t i = 0; i < OPT_ARRAY_SIZE(opt_table); i++) {
		const struct wl_option_info *in = &opt_table[i].info;
		if (strcmp(in->name, name) == 0 || (in->alias && strcmp(in->alias, name) == 0))
			return &opt_table[i];
	}
	return NULL;
}

/* --- public API --- */

int wl_job_set(struct wl_job *job, const char *name, const char *value, const char *where,
               char *msg, size_t msglen)
{
	struct opt_ctx ctx = {.where = where, .given = name, .msg = msg, .msglen = msglen};
	if (msg && msglen)
		msg[0] = '\0';
	if (!job || !name)
		return opt_fail(&ctx, false, "internal error: no job or no option name");
	if (!name[0])
		return opt_fail(&ctx, false, "missing option name");

	const struct opt_def *def = opt_lookup(name);
	if (def) {
		int ret = def->set(job, def, value, &ctx);
		if (!ret)
			wl_given_add(job->given, def->info.name, value);
		return ret;
	}

	for (size_t i = 0; i < OPT_ARRAY_SIZE(opt_redirects); i++)
		if (strcmp(name, opt_redirects[i].name) == 0)
			return opt_fail(&ctx, false, "option '%s' is not supported: %s", name,
			                opt_redirects[i].why);
	for (size_t i = 0; i < OPT_ARRAY_SIZE(opt_fio_unsupported); i++)
		if (strcmp(name, opt_fio_unsupported[i]) == 0)
			return opt_fail(&ctx, false,
			                "fio option '%s' is not supported by raidlab (see "
			                "'raidlab help options')",
			                name);

	const char *names[2 * OPT_ARRAY_SIZE(opt_table)];
	size_t n = 0;
	for (size_t i = 0; i < OPT_ARRAY_SIZE(opt_table); i++) {
		names[n++] = opt_table[i].info.name;
		names[n++] = opt_table[i].info.alias;
	}
	const char *s = opt_suggest_from(name, names, n);
	if (s)
		return opt_fail(&ctx, false, "unknown option '%s' (did you mean '%s'?)", name, s);
	return opt_fail(&ctx, false, "unknown option '%s' (see 'raidlab help options')", name);
}

void wl_job_init(struct wl_job *job)
{
	memset(job, 0, sizeof(*job));
	for (size_t i = 0; i < OPT_ARRAY_SIZE(opt_table); i++) {
		const struct opt_def *def = &opt_table[i];
		struct opt_ctx ctx = {.given = def->info.name};
		if (def->info.def[0])
			(void)def->set(job, def, def->info.def, &ctx);
	}
	job->direct_given = false;
	job->iodepth_given = false;
	job->engine_given = false;
	job->sqthread_poll_cpu = -1; /* none: the kernel places the thread */
	job->verify_given = false;
	job->scramble_given = false;
	job->rwmix_given[0] = job->rwmix_given[1] = false;
}

bool wl_job_apply_fio_defaults(struct wl_job *job, bool fio_files)
{
	bool paths = job->directory[0] || (job->filename[0] && !strchr(job->filename, '('));
	if (!paths && !(fio_files && !job->filename[0]))
		return false;
	if (!job->direct_given)
		job->direct = false;
	job->keep_files = !job->unlink_files;
	/* a trace replays at its recorded depth, which one synchronous call at a
	 * time could not keep: it stays on io_uring unless an engine is named */
	if (job->engine_given || job->engine == WL_ENGINE_PSYNC || job->read_iolog[0])
		return false;
	job->engine = WL_ENGINE_PSYNC;
	snprintf(job->engine_name, sizeof(job->engine_name), "psync");
	return true;
}

static struct wl_option_info opt_infos[OPT_ARRAY_SIZE(opt_table)];
static pthread_once_t opt_infos_once = PTHREAD_ONCE_INIT;

static void opt_infos_fill(void)
{
	for (size_t i = 0; i < OPT_ARRAY_SIZE(opt_table); i++)
		opt_infos[i] = opt_table[i].info;
}

const struct wl_option_info *wl_options(size_t *count)
{
	pthread_once(&opt_infos_once, opt_infos_fill);
	if (count)
		*count = OPT_ARRAY_SIZE(opt_table);
	return opt_infos;
}

bool wl_option_range(const char *name, uint64_t *min, uint64_t *max)
{
	const struct opt_def *def = opt_lookup(name);

	if (!def || !def->max)
		return false;
	*min = def->min;
	*max = def->max;
	return true;
}

const char *wl_option_choice(const char *name, size_t i)
{
	const struct opt_def *def = opt_lookup(name);

	if (!def || !def->choices)
		return NULL;
	for (size_t k = 0; def->choices[k].text; k++)
		if (k == i)
			return def->choices[k].text;
	return NULL;
}
