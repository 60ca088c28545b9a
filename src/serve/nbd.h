/*
 * nbd.h - the NBD wire protocol: magic numbers, option, reply, command,
 * flag and error values, as the NBD project's protocol specification
 * (doc/proto.md) defines them.  Everything on the wire is big-endian.
 *
 * Only values are here; the state machine that speaks the protocol is
 * conn.c.  Names keep the specification's spelling behind an NBD_ prefix
 * so they can be looked up in it.
 */
#ifndef RL_SERVE_NBD_H
#define RL_SERVE_NBD_H

#include <stdint.h>

/* --- handshake --- */
#define NBD_MAGIC          0x4e42444d41474943ull /* "NBDMAGIC" */
#define NBD_IHAVEOPT       0x49484156454f5054ull /* "IHAVEOPT" */
#define NBD_REP_MAGIC      0x0003e889045565a9ull /* option replies */
#define NBD_REQUEST_MAGIC  0x25609513u
#define NBD_SIMPLE_MAGIC   0x67446698u
#define NBD_STRUCTURED_MAG 0x668e33efu

/* handshake flags (server) and client flags */
#define NBD_FLAG_FIXED_NEWSTYLE   0x1u
#define NBD_FLAG_NO_ZEROES        0x2u
#define NBD_FLAG_C_FIXED_NEWSTYLE 0x1u
#define NBD_FLAG_C_NO_ZEROES      0x2u

/* transmission flags */
#define NBD_FLAG_HAS_FLAGS         (1u << 0)
#define NBD_FLAG_READ_ONLY         (1u << 1)
#define NBD_FLAG_SEND_FLUSH        (1u << 2)
#define NBD_FLAG_SEND_FUA          (1u << 3)
#define NBD_FLAG_ROTATIONAL        (1u << 4)
#define NBD_FLAG_SEND_TRIM         (1u << 5)
#define NBD_FLAG_SEND_WRITE_ZEROES (1u << 6)
#define NBD_FLAG_SEND_DF           (1u << 7)
#define NBD_FLAG_CAN_MULTI_CONN    (1u << 8)
#define NBD_FLAG_SEND_CACHE        (1u << 10)

/* options */
#define NBD_OPT_EXPORT_NAME       1u
#define NBD_OPT_ABORT             2u
#define NBD_OPT_LIST              3u
#define NBD_OPT_STARTTLS          5u
#define NBD_OPT_INFO              6u
#define NBD_OPT_GO                7u
#define NBD_OPT_STRUCTURED_REPLY  8u
#define NBD_OPT_LIST_META_CONTEXT 9u
#define NBD_OPT_SET_META_CONTEXT  10u

/* option replies */
#define NBD_REP_ACK          1u
#define NBD_REP_SERVER       2u
#define NBD_REP_INFO         3u
#define NBD_REP_ERR_UNSUP    (0x80000000u + 1)
#define NBD_REP_ERR_POLICY   (0x80000000u + 2)
#define NBD_REP_ERR_INVALID  (0x80000000u + 3)
#define NBD_REP_ERR_PLATFORM (0x80000000u + 4)
#define NBD_REP_ERR_TLS_REQD (0x80000000u + 5)
#define NBD_REP_ERR_UNKNOWN  (0x80000000u + 6)
#define NBD_REP_ERR_SHUTDOWN (0x80000000u + 7)
#define NBD_REP_ERR_TOO_BIG  (0x80000000u + 9)

/* NBD_REP_INFO types */
#define NBD_INFO_EXPORT      0u
#define NBD_INFO_NAME        1u
#define NBD_INFO_DESCRIPTION 2u
#define NBD_INFO_BLOCK_SIZE  3u

/* commands */
#define NBD_CMD_READ         0u
#define NBD_CMD_WRITE        1u
#define NBD_CMD_DISC         2u
#define NBD_CMD_FLUSH        3u
#define NBD_CMD_TRIM         4u
#define NBD_CMD_CACHE        5u
#define NBD_CMD_WRITE_ZEROES 6u

/* command flags */
#define NBD_CMD_FLAG_FUA       (1u << 0)
#define NBD_CMD_FLAG_NO_HOLE   (1u << 1)
#define NBD_CMD_FLAG_DF        (1u << 2)
#define NBD_CMD_FLAG_REQ_ONE   (1u << 3)
#define NBD_CMD_FLAG_FAST_ZERO (1u << 4)

/* structured replies */
#define NBD_REPLY_FLAG_DONE        1u
#define NBD_REPLY_TYPE_NONE        0u
#define NBD_REPLY_TYPE_OFFSET_DATA 1u
#define NBD_REPLY_TYPE_ERROR       (0x8000u + 1)

/* errors on the wire */
#define NBD_EPERM     1u
#define NBD_EIO       5u
#define NBD_ENOMEM    12u
#define NBD_EINVAL    22u
#define NBD_ENOSPC    28u
#define NBD_EOVERFLOW 75u
#define NBD_ENOTSUP   95u
#define NBD_ESHUTDOWN 108u

/* sizes */
#define NBD_REQUEST_SIZE 28u /* magic, flags, type, cookie, offset, length */
#define NBD_OPT_HDR_SIZE 16u /* IHAVEOPT, option, length */
#define NBD_MAX_STRING   4096u
#define NBD_DEFAULT_MAX  (32u << 20)              /* maximum payload this server accepts */
#define NBD_OPT_DATA_MAX (NBD_MAX_STRING + 1024u) /* longest option data accepted */

#endif
