/*
 * parity_log.h - closing the write hole: a write journal on a separate
 * target (journal=SPEC, md's raid5-cache in write-through mode) or a
 * partial parity log on the members (ppl=on, md's raid5-ppl).
 *
 * Both log one record per stripe-cache window before any member is
 * written; the record goes out with FUA, and only then the data and
 * parity.  Each cache entry owns a fixed record area (entry i at i *
 * record size), and a window always maps to the same entry, so the latest
 * record for any rows overwrites the earlier ones: replaying every valid
 * record, in any order, redoes exactly the last write of each window.
 *
 *   journal  the record holds every member write of the window (member,
 *            offset, length and the bytes).  Replay rewrites them all, so
 *            data and parity agree again and the data the host wrote is
 *            there.
 *   ppl      raid5 only.  The record holds the partial parity: the XOR of
 *            the window's rows that this write does not modify, kept in
 *            the log area of the stripe's parity member (the end of every
 *            member is reserved for it).  Replay recomputes parity as the
 *            partial parity XOR the modified chunks' current contents, so
 *            parity agrees with whatever reached the data members (old or
 *            new): the chunks that were not written stay intact, in-flight
 *            data may be lost, as md documents.
 *
 * Record: a 4 KiB header (magic, kind, sequence number, stripe, rows
 * [lo, hi), entries, CRC-32C of header and payload), then the payload.
 */
#ifndef RL_RAID_PARITY_LOG_H
#define RL_RAID_PARITY_LOG_H

#include <stddef.h>
#include <stdint.h>

#define PARITY_LOG_MAGIC   0x524c4c47u /* "RLLG" */
#define PARITY_LOG_HDR     4096u
#define PARITY_LOG_ENTRIES 130 /* fits the header: room for 2 * 64 + 2 writes */

enum parity_log_kind { PARITY_LOG_NONE = 0, PARITY_LOG_JOURNAL = 1, PARITY_LOG_PPL = 2 };

struct parity_log_entry {
	uint32_t member;
	uint32_t len;    /* bytes in the payload (journal), or 0 (ppl: rows [off, off+len2)) */
	uint64_t offset; /* member byte offset (journal); modified rows start (ppl) */
	uint64_t end;    /* ppl: modified rows end; journal: unused */
};

struct parity_log_hdr {
	uint32_t kind;
	uint64_t seq;
	uint64_t stripe;
	uint64_t lo, hi; /* rows of the window (in-chunk offsets) */
	uint32_t nentries;
	uint64_t payload; /* payload bytes following the header */
	struct parity_log_entry e[PARITY_LOG_ENTRIES];
};

/** Encode @h into the 4 KiB @hdr, with the CRC over it and @payload. */
void parity_log_encode(const struct parity_log_hdr *h, uint8_t *hdr, const uint8_t *payload);

/**
 * Decode a header; 0 when it is a valid record whose CRC matches @payload
 * (at least @avail bytes readable after the header), else -EINVAL.
 */
int parity_log_decode(const uint8_t *hdr, const uint8_t *payload, size_t avail,
                      struct parity_log_hdr *h);

#endif
