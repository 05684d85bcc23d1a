/*
 * _jcs: the RFC 8785 canonical form and chain hash of trajectory lines, one pass in C.
 *
 * Why this exists: in Python the per-event work of the chain (a parse, a sorted dump, a hash)
 * costs ~12 us of C-level calls plus the glue between them, against a floor of ~3.5 us an event
 * for decompressing and hashing the bytes once (issue 3). Here one pass over each line checks
 * it as strict JSON (valid UTF-8, no repeated member), writes its RFC 8785 form without the
 * `hash` member, and hashes `prev_hash || canonical` with OpenSSL's SHA-256.
 *
 * This module never words a finding and never decides a verdict. For each line it either
 * vouches ("ok": the line is one of the ordinary events below and its hash is exactly
 * `chain.event_hash`), or declines, and the caller sends the line through the Python path
 * (`trajectory.examine_line`), which alone reports. It declines anything unusual rather than
 * handle it: whitespace between tokens, integers beyond 2^53 - 1, lone surrogates, escapes
 * in envelope strings, nesting beyond MAX_DEPTH, unknown envelope members, invalid JSON.
 * tests/test_native_jcs.py holds it to `canonical.canonical_json` and to the Python path.
 *
 * An "ordinary event" is an object with exactly the ten envelope members: `schema` (equal to
 * the expected schema), `producer_sequence` (an integer), `wall_time`, `run_id`,
 * `trust_level`, `producer`, `type` (strings without escapes), `payload` (an object),
 * `prev_hash` and `hash` (64 lowercase hex digits).
 *
 * Per line it also reports spelling facts for `chain.respelled` (see trajectory.py):
 * MIN (no whitespace, every string and number spelled as RFC 8785 spells it), SORTED_CP and
 * SORTED_U16 (every object's members in code point / UTF-16 order, `hash` included), FLOAT (a
 * number with a fraction or exponent), ASCII (no byte >= 0x80 and no DEL), SPACED (json.dumps'
 * default separators: one space after every `,` and `:`, a line's only whitespace; a line
 * mixing spaced and bare separators, or holding any other whitespace, is declined).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined(__linux__) || defined(__APPLE__)
#include <pthread.h>
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define ST_OK 1
#define ST_MIN 2
#define ST_SORTED_CP 4
#define ST_SORTED_U16 8
#define ST_FLOAT 16
#define ST_ASCII 32
#define ST_SEED 64
#define ST_INTACT 128
#define ST_MINX 256      /* MIN but for the float tokens */
#define ST_F_ORJSON 512  /* every float token spelled as orjson writes it */
#define ST_F_REPR 1024   /* every float token spelled as Python's repr (json.dumps) writes it */
#define ST_SPACED 2048   /* one space after every `,` and `:` (json.dumps' default separators)
                          * and no other whitespace; MIN is then clear, MINX and the float
                          * flags speak of the tokens */
#define ST_EA 4096       /* MINX, but with strings spelled as json.dumps(ensure_ascii=True)
                          * writes them (`\u00e9`, `\ud83d\ude00`, lowercase; no raw byte
                          * >= 0x80, no raw DEL) rather than as RFC 8785 does */
#define ST_NOWRITER 8192 /* a string holds `\/`, or a `\u` escape with an uppercase hex digit or of
                          * a printable ASCII character (Go's `\u003c`): no writer that
                          * `chain.respelled` knows spells the line */
#define ST_START (ST_MIN | ST_MINX | ST_SORTED_CP | ST_SORTED_U16 | ST_ASCII | ST_F_ORJSON | \
                  ST_F_REPR | ST_EA)

/* The levels of arrays and objects a line may hold: orjson's, which writes 254 and not 255
 * (jsonline.TOO_DEEP), so that a line read here is one the Python path re-serialises. It was
 * 64: game-state trees 24-40 objects deep, each holding its child in an array of one, are
 * 44-79 levels, and every line past 64 went to the Python path (QA s38 `deepnest`, 52.7x its
 * floor). The parse recurses: parse_object's frame is 496 bytes (gcc -O2 -fstack-usage),
 * parse_array's 128, and 254 levels crashed a 96 KiB thread stack, so depth alone does not
 * keep it safe: `stack_floor` below. */
#define MAX_DEPTH 254
/* Stack kept free below the deepest parse frame: for what a frame at the floor calls
 * (parse_string, parse_number's 216 bytes of spellings, sort_mems, malloc/realloc) and the
 * platform's guard page. Generous: a line declined for want of stack is only slower. */
#define STACK_MARGIN (32 * 1024)
#define NOTOK 1 /* the line is declined; -1 is a Python error (memory) */
#define HEXLEN 64
#define MAX_SUSPECTS 64 /* lines holding a secrets marker that a summary may carry */

/* OpenSSL's low-level SHA-256, from the libcrypto hashlib has loaded. Not the one-shot
 * SHA256(): in OpenSSL 3 that goes through EVP_Q_digest, which fetches the algorithm (locks
 * included) on every call, ~1 us an event. SHA256_CTX is 112 bytes; 256 leave room. */
typedef int (*sha_init_fn)(void *);
typedef int (*sha_update_fn)(void *, const void *, size_t);
typedef int (*sha_final_fn)(unsigned char *, void *);
static sha_init_fn c_sha_init = NULL;
static sha_update_fn c_sha_update = NULL;
static sha_final_fn c_sha_final = NULL;
static int c_sha256 = 0;
static PyObject *py_sha256 = NULL; /* hashlib.sha256: the fallback, and for tests */
static int force_python_sha = 0;

typedef struct {
    char *p;
    size_t len, cap;
} Buf;

/* Room for `need` elements of `size` bytes in *p (doubling from `first`); -1: MemoryError. */
static int grow(void **p, size_t *cap, size_t need, size_t size, size_t first)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : first;
    while (n < need)
        n *= 2;
    void *np = PyMem_Realloc(*p, n * size);
    if (np == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *p = np;
    *cap = n;
    return 0;
}

/* Inline: the parser asks for room before every token, and nearly always has it. */
static inline int buf_grow(Buf *b, size_t extra)
{
    if (b->len + extra <= b->cap)
        return 0;
    return grow((void **)&b->p, &b->cap, b->len + extra, 1, 4096);
}

/* memcpy of n bytes between buffers that do not overlap, without a call where n is small:
 * two overlapping loads and stores of 8 or 16 bytes (or 4, or a byte at a time), reading and
 * writing only the n bytes. Why: most copies of the parse are of one small token or member
 * (an integer, a literal, `"x":1`); a call to memcpy and its dispatch on n cost more than the
 * copy (a tenth of the C summary on small objects of short names; issue 15). */
static inline void copy_short(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (n > 32) {
        memcpy(d, s, n);
    } else if (n >= 16) {
#if defined(__SSE2__)
        __m128i a = _mm_loadu_si128((const __m128i *)s),
                b = _mm_loadu_si128((const __m128i *)(s + n - 16));
        _mm_storeu_si128((__m128i *)d, a);
        _mm_storeu_si128((__m128i *)(d + n - 16), b);
#else
        memcpy(d, s, n);
#endif
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else {
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    }
}

/* A token of n <= 16 bytes at p in the line, appended to `out`: one 16-byte load and store
 * where the line has 16 bytes from p (the bytes stored past the token are written over by
 * what follows it), else copy_short. Why: integers and literals of 1-5 bytes went byte by byte
 * or through a branch on their length, mispredicted on random values (game states, issue 15).
 * -1: MemoryError. */
static inline int put_token(Buf *out, const unsigned char *p, const unsigned char *end, size_t n)
{
    if (buf_grow(out, 16) < 0)
        return -1;
#if defined(__SSE2__)
    if (end - p >= 16 && n <= 16)
        _mm_storeu_si128((__m128i *)(out->p + out->len), _mm_loadu_si128((const __m128i *)p));
    else
#endif
    {
        if (buf_grow(out, n) < 0)
            return -1;
        copy_short(out->p + out->len, p, n);
    }
    out->len += n;
    return 0;
}

#define PUT(b, data, n)                                                                        \
    do {                                                                                       \
        if ((n) > 0) { /* (memcpy into a buffer not yet allocated, even of 0 bytes, is UB) */  \
            if (buf_grow((b), (n)) < 0)                                                        \
                return -1;                                                                     \
            memcpy((b)->p + (b)->len, (data), (n));                                            \
            (b)->len += (n);                                                                   \
        }                                                                                      \
    } while (0)

#define PUTC(b, c)                                                                             \
    do {                                                                                       \
        if (buf_grow((b), 1) < 0)                                                              \
            return -1;                                                                         \
        (b)->p[(b)->len++] = (char)(c);                                                        \
    } while (0)

/* One member of an object being parsed: its unescaped name (in the line, or in the arena when
 * it held escapes) and the span of its canonical `"name":value` in the output. */
typedef struct {
    size_t key_off, key_len;
    size_t start, end;
    uint64_t prefix; /* the name's first 8 bytes, big-endian, zero-padded: most comparisons */
    int rank;        /* at the top level: the envelope member's place in canonical order */
    unsigned char in_arena, nonbmp, is_hash;
} Mem;

enum { F_SCHEMA, F_SEQ, F_WALL, F_RUN, F_TRUST, F_PRODUCER, F_TYPE, F_PAYLOAD, F_PREV, F_HASH,
       F_COUNT };
static const char *FIELD_NAMES[F_COUNT] = {"schema", "producer_sequence", "wall_time",
                                           "run_id", "trust_level", "producer", "type",
                                           "payload", "prev_hash", "hash"};

/* The order of an object's members, by the sequence of their names as read (see
 * parse_object): the names (pointers into the caller's buffer, which outlives the call), their
 * prefixes and lengths, whether they were in order, and the permutation that sorts them. */
#define KO_SLOTS 64
#define KO_MAX 16
#define KO_TRIAL 1024 /* lookups before a hit rate under 1 in 8 stops them for the call */
typedef struct {
    uint64_t h;
    const unsigned char *name[KO_MAX];
    uint64_t prefix[KO_MAX];
    size_t len[KO_MAX];
    unsigned char perm[KO_MAX];
    unsigned char n, sorted_cp, sorted_u16;
} KeyOrder;

/* Member names spelled with `\uXXXX` escapes (json.dumps' ensure_ascii), as read and decoded
 * (see parse_string): only names whose every escape took u_run, so that the name's bytes
 * alone decide its decoding and its flags (ST_ASCII, ST_MIN, ST_MINX lost; an ea_escape). */
#define KM_SLOTS 32
#define KM_RAW 48
#define KM_TRIAL 256 /* lookups before a hit rate under 1 in 8 stops them for the call */
typedef struct {
    unsigned char raw_len, dec_len, nonbmp; /* raw_len 0: an empty slot */
    unsigned char raw[KM_RAW];              /* the name as spelled, between its quotes */
    unsigned char dec[KM_RAW];              /* its UTF-8: also RFC 8785's spelling of it */
} KeyMemo;

typedef struct {
    const unsigned char *s, *p, *end; /* the line, the cursor, the end of the line */
    Buf out, arena, tmp;
    Mem *mems;
    size_t nmem, capmem;
    KeyOrder *ko;                /* KO_SLOTS member orders seen in this call, or NULL */
    KeyMemo *km;                 /* KM_SLOTS escaped names seen in this call, or NULL */
    unsigned km_tries, km_hits;  /* lookups and hits: few hits turn the lookups off */
    unsigned ko_tries, ko_hits;  /* lookups and hits: few hits turn the lookups off */
    unsigned flat_tries, flat_hits; /* flat_object's: few hits turn it off for the call */
    int flags;
    int seen;                    /* envelope members seen, a bit each */
    size_t f_off[F_COUNT], f_len[F_COUNT]; /* value spans in the line (strings: no quotes) */
    int str_escaped;             /* set by parse_string: the last string held an escape */
    const char *schema;          /* scan_line's schema, for an escaped one (see parse_object) */
    size_t schema_len;
    int schema_ok;               /* the schema, spelled with escapes, was compared decoded */
    int str_nonbmp;              /* the last string held a character outside the BMP */
    int sep_spaced, sep_bare;    /* a `,` or `:` was followed by one space / by none */
    int ea_escape;               /* an escape only ensure_ascii's spelling explains */
    const unsigned char *plain_fail; /* where plain_array last stopped short: an array that
                                      * starts before it is not tried again (see there) */
    int row_hint;                /* take_scalar_row before plain_array (see there) */
    int mixed_at;                /* depth + 1 of arrays that skip plain_array (see there) */
    unsigned flat_n, flat_inorder; /* flat_object's last ranking: its names' prefixes, the */
    uint64_t flat_pre[16];         /* members in canonical order (flat_at), whether they */
    unsigned char flat_at[16];     /* stood so; flat_n 0: none yet (see flat_object) */
    uintptr_t floor;               /* stack_floor(): a frame below it declines the line */
} P;

/* ---- the C stack -------------------------------------------------------------------------
 * parse_object and parse_array recurse once a level, and a thread's stack may be small: the
 * GUI's and the CLI's threads take the C library's default (glibc: RLIMIT_STACK, 8 MiB as
 * shipped; `ulimit -s 64` gives 64 KiB), `threading.stack_size` may set anything down to
 * 32 KiB, the video process sets 2 MiB (arenas.small_thread_stacks). So besides MAX_DEPTH
 * each level checks that its frame lies above this thread's stack floor (its lowest usable
 * address + STACK_MARGIN) and declines the line otherwise: the Python path reads it, as it
 * reads every declined line. A hostile line nested to MAX_DEPTH never overflows a stack,
 * whatever the thread (QA s38 T6, session 39). The floor is found once a thread (the stack
 * does not move; a forked child's thread is on its parent's), kept thread-locally. */
static _Thread_local uintptr_t stack_floor_tls; /* 0: not found yet; 1: unknown */

static uintptr_t stack_floor(void)
{
    if (stack_floor_tls != 0)
        return stack_floor_tls;
    uintptr_t lo = 0;
#if defined(__linux__)
    pthread_attr_t a;
    void *addr = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &a) == 0) {
        if (pthread_attr_getstack(&a, &addr, &size) == 0)
            lo = (uintptr_t)addr;
        pthread_attr_destroy(&a);
    }
#elif defined(__APPLE__)
    uintptr_t top = (uintptr_t)pthread_get_stackaddr_np(pthread_self());
    size_t size = pthread_get_stacksize_np(pthread_self());
    lo = top > size ? top - size : 0;
#endif
    stack_floor_tls = lo != 0 ? lo + STACK_MARGIN : 1; /* unknown: MAX_DEPTH alone */
    return stack_floor_tls;
}

/* Whether the calling frame is below the floor: the line is then declined. By a local's
 * address, in the frame of the parse_object / parse_array it is inlined into: on 3,000
 * deepnest lines +0.30 % of the scan's instructions (callgrind), where
 * __builtin_frame_address, which makes both keep a frame pointer, was +1.45 %. */
static inline int stack_short(const P *ps)
{
    char here;
    return (uintptr_t)&here < ps->floor;
}

static int parse_value(P *ps, int depth, int role);

/* After a `,` or `:`: one space, as json.dumps' default separators write it, is passed over
 * (the canonical form has none); whether the line's separators are spaced or bare is noted,
 * and a line with both is declined at its end (`sep_verdict`). Any other whitespace is
 * declined where the next token is expected. */
static inline void after_sep(P *ps)
{
    if (ps->p < ps->end && *ps->p == ' ') {
        ps->p++;
        ps->sep_spaced = 1;
    } else {
        ps->sep_bare = 1;
    }
}

/* At the end of a line or value: NOTOK when it mixed spaced and bare separators, else 0 (and
 * the SPACED flag for spaced ones: not MIN). */
static inline int sep_verdict(P *ps)
{
    if (!ps->sep_spaced)
        return 0;
    if (ps->sep_bare)
        return NOTOK;
    ps->flags = (ps->flags & ~ST_MIN) | ST_SPACED;
    return 0;
}

/* Whether the 4 hex digits at p (valid ones) hold no uppercase letter. */
static inline int lower_hex4(const unsigned char *p)
{
    return !((p[0] >= 'A' && p[0] <= 'F') || (p[1] >= 'A' && p[1] <= 'F') ||
             (p[2] >= 'A' && p[2] <= 'F') || (p[3] >= 'A' && p[3] <= 'F'));
}

/* At the end of a line or value: EA stands when the strings' escapes are all ensure_ascii's
 * and the text holds no raw byte >= 0x80 and no raw DEL (ensure_ascii escapes both). Without
 * an escape only ensure_ascii explains, that is ASCII; with one, the bytes are looked at. */
static void ea_verdict(P *ps)
{
    if (!(ps->flags & ST_EA))
        return;
    if (!ps->ea_escape) {
        if (!(ps->flags & ST_ASCII))
            ps->flags &= ~ST_EA;
        return;
    }
    const unsigned char *q = ps->s;
#if defined(__SSE2__)
    /* 64 bytes a step (a line of ensure_ascii's escapes is long: ~10 % of the `uescapes`
     * shape's C summary went to the 8-byte loop below): the high bits, and DEL */
    const __m128i del = _mm_set1_epi8(0x7f);
    for (; ps->end - q >= 64; q += 64) {
        __m128i v0 = _mm_loadu_si128((const __m128i *)q);
        __m128i v1 = _mm_loadu_si128((const __m128i *)(q + 16));
        __m128i v2 = _mm_loadu_si128((const __m128i *)(q + 32));
        __m128i v3 = _mm_loadu_si128((const __m128i *)(q + 48));
        __m128i any = _mm_or_si128(_mm_or_si128(v0, v1), _mm_or_si128(v2, v3));
        __m128i d = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v0, del), _mm_cmpeq_epi8(v1, del)),
                                 _mm_or_si128(_mm_cmpeq_epi8(v2, del), _mm_cmpeq_epi8(v3, del)));
        if (_mm_movemask_epi8(_mm_or_si128(any, d))) {
            ps->flags &= ~ST_EA;
            return;
        }
    }
#endif
    for (; ps->end - q >= 8; q += 8) { /* a byte >= 0x7f: its high bit, or that of it + 1 */
        uint64_t v;
        memcpy(&v, q, 8);
        if ((v | (v + 0x0101010101010101ull)) & 0x8080808080808080ull) {
            ps->flags &= ~ST_EA;
            return;
        }
    }
    for (; q < ps->end; q++)
        if (*q >= 0x7f) {
            ps->flags &= ~ST_EA;
            return;
        }
}

/* The parser's buffers, freed when a call ends. */
static void p_free(P *ps)
{
    PyMem_Free(ps->out.p);
    PyMem_Free(ps->arena.p);
    PyMem_Free(ps->tmp.p);
    PyMem_Free(ps->mems);
    PyMem_Free(ps->ko);
    PyMem_Free(ps->km);
}

/* ---- UTF-8 ------------------------------------------------------------------------------ */

/* Length of the valid UTF-8 sequence at p (its code point in *cp), or 0 when invalid. */
static inline int utf8_seq(const unsigned char *p, const unsigned char *end, uint32_t *cp)
{
    unsigned c = p[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c < 0xC2)
        return 0;
    if (c < 0xE0) {
        if (end - p < 2 || (p[1] & 0xC0) != 0x80)
            return 0;
        *cp = ((c & 0x1F) << 6) | (p[1] & 0x3F);
        return 2;
    }
    if (c < 0xF0) {
        if (end - p < 3 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80)
            return 0;
        if (c == 0xE0 && p[1] < 0xA0)
            return 0; /* overlong */
        if (c == 0xED && p[1] >= 0xA0)
            return 0; /* a surrogate */
        *cp = ((c & 0x0F) << 12) | ((p[1] & 0x3F) << 6) | (p[2] & 0x3F);
        return 3;
    }
    if (c < 0xF5) {
        if (end - p < 4 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80 ||
            (p[3] & 0xC0) != 0x80)
            return 0;
        if (c == 0xF0 && p[1] < 0x90)
            return 0; /* overlong */
        if (c == 0xF4 && p[1] >= 0x90)
            return 0; /* beyond U+10FFFF */
        *cp = ((c & 0x07) << 18) | ((p[1] & 0x3F) << 12) | ((p[2] & 0x3F) << 6) | (p[3] & 0x3F);
        return 4;
    }
    return 0;
}

/* ---- strings ---------------------------------------------------------------------------- */

static const char HEXD[] = "0123456789abcdef";

/* Lowercase hex digit values; 0x80 marks every other byte (branch-free checks: a hash's
 * digits are random, so a branch per digit mispredicts often). */
static unsigned char LOWHEX[256];

static void init_lowhex(void)
{
    memset(LOWHEX, 0x80, sizeof(LOWHEX));
    for (int c = '0'; c <= '9'; c++)
        LOWHEX[c] = (unsigned char)(c - '0');
    for (int c = 'a'; c <= 'f'; c++)
        LOWHEX[c] = (unsigned char)(c - 'a' + 10);
}


/* put_utf8 into room the caller has made; the bytes written. */
static inline size_t put_utf8_raw(unsigned char *t, uint32_t cp)
{
    if (cp < 0x80) {
        t[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        t[0] = (unsigned char)(0xC0 | (cp >> 6));
        t[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        t[0] = (unsigned char)(0xE0 | (cp >> 12));
        t[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        t[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    t[0] = (unsigned char)(0xF0 | (cp >> 18));
    t[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    t[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    t[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* put_escaped into room the caller has made (at most 6 bytes); the bytes written. */
static inline size_t put_escaped_raw(unsigned char *t, uint32_t cp)
{
    char e = 0;
    switch (cp) {
    case '"': e = '"'; break;
    case '\\': e = '\\'; break;
    case '\b': e = 'b'; break;
    case '\f': e = 'f'; break;
    case '\n': e = 'n'; break;
    case '\r': e = 'r'; break;
    case '\t': e = 't'; break;
    default:
        if (cp < 0x20) {
            t[0] = '\\';
            t[1] = 'u';
            t[2] = '0';
            t[3] = '0';
            t[4] = (unsigned char)HEXD[cp >> 4];
            t[5] = (unsigned char)HEXD[cp & 15];
            return 6;
        }
        return put_utf8_raw(t, cp);
    }
    t[0] = '\\';
    t[1] = (unsigned char)e;
    return 2;
}

static inline int hexval(unsigned c)
{
    if (c >= '0' && c <= '9')
        return (int)(c - '0');
    if (c >= 'a' && c <= 'f')
        return (int)(c - 'a' + 10);
    if (c >= 'A' && c <= 'F')
        return (int)(c - 'A' + 10);
    return -1;
}

static inline int read_u4(const unsigned char *p, const unsigned char *end, uint32_t *v)
{
    if (end - p < 4)
        return -1;
    uint32_t r = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval(p[i]);
        if (h < 0)
            return -1;
        r = (r << 4) | (uint32_t)h;
    }
    *v = r;
    return 0;
}

/* The first byte at or after p that ends the plain run of a string: `"`, `\`, a control
 * character, DEL or a byte >= 0x80. */
static inline const unsigned char *plain_run(const unsigned char *p, const unsigned char *end)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7f);
    while (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)p);
        /* signed: bytes >= 0x80 are negative, hence below 0x20 too */
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)),
                                   _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, del)));
        int mask = _mm_movemask_epi8(hit);
        if (mask)
            return p + __builtin_ctz((unsigned)mask);
        p += 16;
    }
#endif
    while (p < end) {
        unsigned c = *p;
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x7f)
            return p;
        p++;
    }
    return p;
}

/* plain_run that also copies the run to *o as it scans, 16 bytes at a time (a store may
 * write up to 15 bytes past the run: the caller has room for them, and they are overwritten
 * next). In an escape-heavy string the runs are short: a memcpy call for each cost more than
 * the copy. */
static inline const unsigned char *plain_copy(const unsigned char *p, const unsigned char *end,
                                              unsigned char **o)
{
    unsigned char *w = *o;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7f);
    while (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)p);
        _mm_storeu_si128((__m128i *)w, v);
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)),
                                   _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, del)));
        int mask = _mm_movemask_epi8(hit);
        if (mask) {
            int k = __builtin_ctz((unsigned)mask);
            *o = w + k;
            return p + k;
        }
        p += 16;
        w += 16;
    }
#endif
    while (p < end) {
        unsigned c = *p;
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x7f)
            break;
        *w++ = (unsigned char)c;
        p++;
    }
    *o = w;
    return p;
}

/* A non-ASCII character of a string at *p: validated, noted (not ASCII; outside the BMP),
 * passed over. NOTOK for invalid UTF-8. */
static inline int take_utf8(P *ps, const unsigned char **p, const unsigned char *end,
                            uint32_t *cp)
{
    int n = utf8_seq(*p, end, cp);
    if (n == 0)
        return NOTOK;
    ps->flags &= ~ST_ASCII;
    if (n == 4)
        ps->str_nonbmp = 1;
    *p += n;
    return 0;
}

/* Past the valid multi-byte characters from p (a character boundary): stops at ASCII, at the
 * first invalid or cut sequence (the caller's utf8_seq decides it) or 4 bytes from the end.
 * One 4-byte load and one mask test a character, without its code point: utf8_seq took a
 * call, a branch per length and the code point per character, a tenth of the `cjkkeys`
 * shape's C summary. The tests are utf8_seq's: a 3-byte lead E0 needs A0-BF next (else
 * overlong), ED 80-9F (else a surrogate); a 2-byte lead C0 or C1 is overlong; a 4-byte lead
 * F0 needs 90-BF next, F4 80-8F, F5-F7 are beyond U+10FFFF. *nonbmp is set by a 4-byte one. */
static inline const unsigned char *utf8_run(const unsigned char *p, const unsigned char *end,
                                            int *nonbmp)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    while (end - p >= 4) {
        uint32_t w;
        memcpy(&w, p, 4); /* p[0] in the low byte */
        if ((w & 0xC0C0F0u) == 0x8080E0u) { /* 1110xxxx 10xxxxxx 10xxxxxx */
            unsigned c = p[0];
            if ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] >= 0xA0))
                break;
            p += 3;
        } else if ((w & 0xC0E0u) == 0x80C0u) { /* 110xxxxx 10xxxxxx */
            if (p[0] < 0xC2)
                break;
            p += 2;
        } else if ((w & 0xC0C0C0F8u) == 0x808080F0u) { /* 11110xxx and three 10xxxxxx */
            unsigned c = p[0];
            if (c > 0xF4 || (c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] >= 0x90))
                break;
            *nonbmp = 1;
            p += 4;
        } else {
            break;
        }
    }
#else
    (void)end, (void)nonbmp;
#endif
    return p;
}

/* The short escapes RFC 8785 writes: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t` (1 for the byte
 * after the backslash). */
static const unsigned char SHORT_ESC[256] = {['"'] = 1, ['\\'] = 1, ['b'] = 1, ['f'] = 1,
                                              ['n'] = 1, ['r'] = 1, ['t'] = 1};

/* Whether the `\u` escape at q (6 bytes readable) is RFC 8785's: `\u00xx` in lowercase hex,
 * for a control character without a short escape (ESC, `\u001b`, in coloured terminal
 * output). */
static inline int canonical_u00(const unsigned char *q)
{
    if (q[2] != '0' || q[3] != '0' || (q[4] != '0' && q[4] != '1'))
        return 0;
    unsigned d = q[5], h;
    if (d >= '0' && d <= '9')
        h = d - '0';
    else if (d >= 'a' && d <= 'f')
        h = d - 'a' + 10;
    else
        return 0;
    unsigned cp = (unsigned)(q[4] - '0') << 4 | h;
    return !(cp == '\b' || cp == '\f' || cp == '\n' || cp == '\r' || cp == '\t');
}

#if defined(__SSE2__)
/* canonical_escapes over 32 bytes at a time: the window's backslashes, quotes, control
 * characters, DEL and bytes >= 0x80 as one bit mask, taken in order. A short escape clears its
 * backslash's bit and the next (the escaped byte may be `"` or `\`) and stays in the window:
 * shell output has an escape every ~10 bytes, and reloading after each one (plain_run) cost
 * more than the check. Anything else the mask shows ends the window at it: *pp there and 0
 * (the caller's scalar step takes it), or 1 at the closing quote; 2 when the window held
 * nothing else (*pp past it). A `\u00xx` escape RFC 8785 writes (canonical_u00) is taken in
 * the window too: coloured terminal output has an ESC (`\u001b`) every ~20 bytes, and each
 * ended the window (`ansi` shape, issue 15). Needs 38 bytes from *pp (a 6-byte escape from
 * the window's last position). */
static inline int escape_window(P *ps, const unsigned char **pp)
{
    const unsigned char *p = *pp;
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7f);
    __m128i v0 = _mm_loadu_si128((const __m128i *)p);
    __m128i v1 = _mm_loadu_si128((const __m128i *)(p + 16));
    uint64_t bs = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v0, bslash)) |
                  (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v1, bslash)) << 16;
    /* signed: bytes >= 0x80 are negative, hence below 0x20 too */
    __m128i o0 = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v0, quote), _mm_cmplt_epi8(v0, space)),
                              _mm_cmpeq_epi8(v0, del));
    __m128i o1 = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v1, quote), _mm_cmplt_epi8(v1, space)),
                              _mm_cmpeq_epi8(v1, del));
    uint64_t m = bs | (uint64_t)(uint32_t)_mm_movemask_epi8(o0) |
                 (uint64_t)(uint32_t)_mm_movemask_epi8(o1) << 16;
    while (m) {
        int k = __builtin_ctzll(m);
        if ((bs >> k) & 1) {
            if (p[k + 1] == 'u' && canonical_u00(p + k)) {
                if (k >= 26) { /* (it ends at or past the window's end) */
                    *pp = p + k + 6;
                    return 2;
                }
                m &= ~(0x3Full << k); /* (its other five bytes are no bits) */
                bs &= ~(0x3Full << k);
                continue;
            }
            if (!SHORT_ESC[p[k + 1]]) { /* another `\u`, or not canonical: the scalar step */
                *pp = p + k;
                return 0;
            }
            m &= ~(3ull << k); /* bit 32 (an escape at 31 ending past the window) is no bit */
            bs &= ~(3ull << k);
            if (k == 31) {
                *pp = p + 33;
                return 2;
            }
            continue;
        }
        if (p[k] == 0x7f) {
            ps->flags &= ~ST_ASCII;
            m &= m - 1;
            continue;
        }
        *pp = p + k; /* a quote, a control character or non-ASCII text */
        return p[k] == '"';
    }
    *pp = p + 32;
    return 2;
}
#endif

static int have_ssse3 = 0, have_avx2 = 0, have_avx512 = 0; /* set when the module loads */
/* what the CPU has (1 SSSE3, 2 AVX2, 3 AVX-512BW), and the most the paths may use (set_simd:
 * the tests run each path on a CPU that has the wider ones) */
static int cpu_simd = 0, simd_cap = 3;

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* escape_window over 64 bytes at once, with AVX2 and no step per escape: which bytes are
 * escaped comes from the backslash mask by carry arithmetic (a run of backslashes escapes
 * every other byte from its start: simdjson's "find escaped" trick), and whether each escaped
 * byte is one of the short escapes' letters from a nibble-table lookup. In shell output (an
 * escape every ~6 bytes) the per-escape loop of escape_window was most of the escape shape's
 * parse (issue 15, session 17). The window starts where no escape is open (a string's first
 * backslash, or just past an escape), as escape_window's does. Returns as escape_window: 1 at
 * the closing quote (*pp there), 0 where the scalar step must decide (*pp at a control
 * character, a non-ASCII byte, or the backslash of an escape RFC 8785 does not write), 2 past
 * the window (*pp advanced 64 bytes, or 63 when its last byte opens an escape). A `\u00xx`
 * escape RFC 8785 writes (canonical_u00) stays in the window; its four digits are no
 * backslash, quote or control character, so a window may end among them. Needs 70 bytes
 * from *pp (a `\u` escape opened at the window's last bytes is read to its end). */
__attribute__((target("avx2"))) static int escape_window64(P *ps, const unsigned char **pp)
{
    const unsigned char *p = *pp;
    const __m256i quote = _mm256_set1_epi8('"'), bslash = _mm256_set1_epi8('\\');
    const __m256i space = _mm256_set1_epi8(0x20), del = _mm256_set1_epi8(0x7f);
    const __m256i letter_u = _mm256_set1_epi8('u'), low = _mm256_set1_epi8(0x0f);
    const __m256i zero = _mm256_setzero_si256();
    /* The short escapes' second bytes `"` 0x22, `\` 0x5C, b 0x62, f 0x66, n 0x6E, r 0x72,
     * t 0x74: a bit per high nibble (2: 1, 5: 2, 6: 4, 7: 8), set in the low nibble's entry
     * of the bytes it holds; a byte is one of them when both lookups share a bit. */
    const __m256i lo_tab = _mm256_setr_epi8(0, 0, 1 | 4 | 8, 0, 8, 0, 4, 0, 0, 0, 0, 0, 2, 0, 4, 0,
                                            0, 0, 1 | 4 | 8, 0, 8, 0, 4, 0, 0, 0, 0, 0, 2, 0, 4, 0);
    const __m256i hi_tab = _mm256_setr_epi8(0, 0, 1, 0, 0, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0,
                                            0, 0, 1, 0, 0, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0);
    uint64_t bs = 0, qt = 0, sp = 0, dl = 0, us = 0, al = 0;
    for (int h = 0; h < 2; h++) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(p + 32 * h));
        int sh = 32 * h;
        bs |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, bslash)) << sh;
        qt |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, quote)) << sh;
        /* signed: bytes >= 0x80 are negative, hence below 0x20 too */
        sp |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(space, v)) << sh;
        dl |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, del)) << sh;
        us |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, letter_u)) << sh;
        __m256i t = _mm256_and_si256(
            _mm256_shuffle_epi8(lo_tab, _mm256_and_si256(v, low)),
            _mm256_shuffle_epi8(hi_tab, _mm256_and_si256(_mm256_srli_epi16(v, 4), low)));
        al |= (uint64_t)(uint32_t)~_mm256_movemask_epi8(_mm256_cmpeq_epi8(t, zero)) << sh;
    }
    const uint64_t even = 0x5555555555555555ull;
    uint64_t follows = bs << 1;
    uint64_t odd_starts = bs & ~even & ~follows;
    uint64_t seq_even = odd_starts + bs; /* (a carry out of bit 63: that run is cut below) */
    uint64_t esc = (even ^ (seq_even << 1)) & follows; /* the escaped bytes */
    uint64_t limit = ~0ull;
    if ((bs & ~esc) >> 63) /* the last byte opens an escape: the next window starts there */
        limit >>= 1;
    uint64_t bad = esc & ~al & ~us; /* an escape RFC 8785 writes otherwise, or invalid */
    for (uint64_t u = esc & us; u; u &= u - 1) {
        int k = __builtin_ctzll(u);
        if (!canonical_u00(p + k - 1))
            bad |= 1ull << k;
    }
    uint64_t stop = ((qt & ~esc) | sp | bad) & limit;
    if (!stop) {
        if (dl & limit)
            ps->flags &= ~ST_ASCII;
        *pp = p + (limit == ~0ull ? 64 : 63);
        return 2;
    }
    int k = __builtin_ctzll(stop);
    if (dl & ((1ull << k) - 1))
        ps->flags &= ~ST_ASCII;
    if ((bad >> k) & 1) { /* the scalar step reads the escape from its backslash */
        *pp = p + k - 1;
        return 0;
    }
    *pp = p + k;
    return p[k] == '"';
}
/* escape_window64's windows with AVX-512BW, one after another while 70 bytes remain, and the
 * `\u00xx` escapes RFC 8785 writes checked in the window's masks rather than one at a time:
 * coloured terminal output has an ESC (`\u001b`) every ~20 bytes, three or four a window,
 * and each took canonical_u00's scalar test; the compares give 64-bit masks at once, where
 * AVX2's two halves were each moved, shifted and joined (QA s31 `ansicolors`, session 32).
 * An escape's digits past the window (its `u` in the last four bytes) take canonical_u00.
 * Returns as escape_window64 (1: *pp at the closing quote; 0: *pp where the scalar step
 * decides), or 2 with *pp where fewer than 70 bytes remain. */
__attribute__((target("avx512bw,avx512vl,avx2"))) static int
escape_run512(P *ps, const unsigned char **pp, const unsigned char *end)
{
    const unsigned char *p = *pp;
    const __m512i quote = _mm512_set1_epi8('"'), bslash = _mm512_set1_epi8('\\');
    const __m512i space = _mm512_set1_epi8(0x20), del = _mm512_set1_epi8(0x7f);
    const __m512i letter_u = _mm512_set1_epi8('u'), low = _mm512_set1_epi8(0x0f);
    const __m512i d0 = _mm512_set1_epi8('0'), d1 = _mm512_set1_epi8('1');
    const __m512i la = _mm512_set1_epi8('a'), ten = _mm512_set1_epi8(10), six = _mm512_set1_epi8(6);
    /* the short escapes' letters, as in escape_window64 */
    const __m512i lo_tab = _mm512_broadcast_i32x4(
        _mm_setr_epi8(0, 0, 1 | 4 | 8, 0, 8, 0, 4, 0, 0, 0, 0, 0, 2, 0, 4, 0));
    const __m512i hi_tab = _mm512_broadcast_i32x4(
        _mm_setr_epi8(0, 0, 1, 0, 0, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0));
    /* the last digits of the control characters with a short escape (`\u0008`, `\u0009`,
     * `\u000a`, `\u000c`, `\u000d`): `8` `9` (high nibble 3: 1), `a` `c` `d` (6: 2) */
    const __m512i lo_sx = _mm512_broadcast_i32x4(
        _mm_setr_epi8(0, 2, 0, 2, 2, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0));
    const __m512i hi_sx = _mm512_broadcast_i32x4(
        _mm_setr_epi8(0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    const uint64_t even = 0x5555555555555555ull;
    uint64_t open = 0; /* 1: the last window's last byte opened an escape (this first byte is
                        * its letter) */
    while (end - p >= 70) {
        __m512i v = _mm512_loadu_si512((const void *)p);
        __m512i vlo = _mm512_and_si512(v, low), vhi = _mm512_and_si512(_mm512_srli_epi16(v, 4), low);
        uint64_t bs = _mm512_cmpeq_epi8_mask(v, bslash);
        uint64_t qt = _mm512_cmpeq_epi8_mask(v, quote);
        uint64_t sp = _mm512_cmplt_epi8_mask(v, space); /* (signed: bytes >= 0x80 too) */
        uint64_t dl = _mm512_cmpeq_epi8_mask(v, del);
        uint64_t us = _mm512_cmpeq_epi8_mask(v, letter_u);
        __m512i t = _mm512_and_si512(_mm512_shuffle_epi8(lo_tab, vlo),
                                     _mm512_shuffle_epi8(hi_tab, vhi));
        uint64_t al = _mm512_test_epi8_mask(t, t);
        /* the escaped bytes, with the escape the last window left open carried in (simdjson's
         * find_escaped): the next window is always 64 bytes on, its load waiting for nothing
         * computed here (escape_window64's next window starts at 63 or 64; this measured
         * alike, and keeps the loads independent) */
        uint64_t bsx = bs & ~open;
        uint64_t follows = bsx << 1 | open;
        uint64_t odd_starts = bsx & ~even & ~follows;
        uint64_t seq_even;
        uint64_t carry = __builtin_add_overflow(odd_starts, bsx, &seq_even);
        uint64_t esc = (even ^ (seq_even << 1)) & follows;
        uint64_t bad = esc & ~al & ~us;
        uint64_t u = esc & us;
        if (u) {
            uint64_t z = _mm512_cmpeq_epi8_mask(v, d0), o = _mm512_cmpeq_epi8_mask(v, d1);
            uint64_t lh = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, d0), ten) |
                          _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, la), six);
            __m512i ts = _mm512_and_si512(_mm512_shuffle_epi8(lo_sx, vlo),
                                          _mm512_shuffle_epi8(hi_sx, vhi));
            uint64_t sx = _mm512_test_epi8_mask(ts, ts);
            /* `u` at k: `0` `0` at k+1, k+2, `0` or `1` at k+3, a lowercase digit at k+4, and
             * not `0` then one of 8 9 a c d (canonical_u00) */
            uint64_t ok = (z >> 1) & (z >> 2) & ((z | o) >> 3) & (lh >> 4) & ~((z >> 3) & (sx >> 4));
            uint64_t past = u & (0xFull << 60); /* digits past the window */
            bad |= u & ~past & ~ok;
            for (; past; past &= past - 1) {
                int k = __builtin_ctzll(past);
                if (!canonical_u00(p + k - 1))
                    bad |= 1ull << k;
            }
        }
        uint64_t stop = (qt & ~esc) | sp | bad;
        if (!stop) {
            if (dl)
                ps->flags &= ~ST_ASCII;
            open = carry;
            p += 64;
            continue;
        }
        int k = __builtin_ctzll(stop);
        if (dl & ((1ull << k) - 1))
            ps->flags &= ~ST_ASCII;
        if ((bad >> k) & 1) { /* the scalar step reads the escape from its backslash (at p - 1
                               * for an escape carried in) */
            *pp = p + k - 1;
            return 0;
        }
        *pp = p + k;
        return p[k] == '"';
    }
    *pp = p - open; /* (an escape left open: from its backslash) */
    return 2;
}
#endif

/* The rest of a value string whose escapes are all spelled as RFC 8785 spells them (`\"`,
 * `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, and `\u00xx` in lowercase for the other control
 * characters), from its first backslash at *pp: then the string's bytes, as they stand, are its
 * canonical form, and need no decoding and re-escaping (shell output full of `\n` and `\t`:
 * an escape every few bytes, each written back as it was read). Checks the rest as the
 * general loop does (valid UTF-8, no raw control character) and notes the same flags. 1: the
 * string ends at *pp (its closing quote); 0: anything else (a non-canonical escape, invalid
 * text, the line's end): the general loop then reads the string again and decides. */
static inline int canonical_escapes(P *ps, const unsigned char **pp, const unsigned char *end)
{
    const unsigned char *p = *pp;
    for (;;) {
#if defined(__x86_64__) && defined(__GNUC__)
        if (have_avx2)
            while (end - p >= 70) {
                int w = escape_window64(ps, &p);
                if (w == 1) {
                    *pp = p;
                    return 1;
                }
                if (w == 0)
                    break;
                /* a long string (past its first window): the rest with AVX-512 (a string
                 * of one window, a path, a regex, goes as before: escape_run512's set-up
                 * for one window cost ~2 % on `winpaths`) */
                if (have_avx512) {
                    if (escape_run512(ps, &p, end) == 1) {
                        *pp = p;
                        return 1;
                    }
                    break;
                }
            }
#endif
#if defined(__SSE2__)
        while (end - p >= 38) {
            int w = escape_window(ps, &p);
            if (w == 1) {
                *pp = p;
                return 1;
            }
            if (w == 0)
                break;
        }
        p = plain_run(p, end); /* (the last window may end inside a plain run) */
        if (p >= end)
            return 0;
#endif
        unsigned c = *p;
        if (c == '\\') {
            if (end - p < 2)
                return 0;
            unsigned e = p[1];
            if (e == 'n' || e == 't' || e == '"' || e == '\\' || e == 'r' || e == 'b' ||
                e == 'f') {
                p += 2;
            } else if (e == 'u') {
                /* canonical only as `\u00xx`, lowercase, for a control character without a
                 * short escape */
                if (end - p < 6 || !canonical_u00(p))
                    return 0;
                p += 6;
            } else {
                return 0;
            }
        } else if (c == '"') {
            *pp = p;
            return 1;
        } else if (c < 0x20) {
            return 0;
        } else if (c == 0x7f) {
            ps->flags &= ~ST_ASCII;
            p++;
        } else { /* >= 0x80 */
            ps->flags &= ~ST_ASCII;
            const unsigned char *q = utf8_run(p, end, &ps->str_nonbmp);
            if (q == p) { /* within 4 bytes of the end, or invalid: one at a time */
                uint32_t cp;
                int k = utf8_seq(p, end, &cp);
                if (k == 0)
                    return 0;
                if (k == 4)
                    ps->str_nonbmp = 1;
                q = p + k;
            }
            p = q;
        }
        p = plain_run(p, end);
        if (p >= end)
            return 0;
    }
}

/* The value of the four hex digits at q when all are lowercase ones, else a value of 0x10000 or
 * more (LOWHEX's 0x80 in any of them), without a branch per digit. */
static inline uint32_t lower_u4(const unsigned char *q)
{
    uint32_t h0 = LOWHEX[q[0]], h1 = LOWHEX[q[1]], h2 = LOWHEX[q[2]], h3 = LOWHEX[q[3]];
    return (h0 << 12 | h1 << 8 | h2 << 4 | h3) | ((h0 | h1 | h2 | h3) & 0x80u) << 9;
}

/* Past the run of `\uXXXX` escapes at p that ensure_ascii writes for non-ASCII text (Python's
 * json.dumps by default): four lowercase hex digits of a character of 0x80 or more, a
 * surrogate pair for one outside the BMP. Each is written at *o (and at *a, a member name's
 * unescaped copy, when a is not NULL) as the UTF-8 bytes RFC 8785 writes for it (as
 * put_escaped_raw and put_utf8_raw would), in one 4-byte store whose unused bytes the next
 * write covers; *nonbmp is set by a pair. It stops, p as it stands, at anything else: another
 * escape, an uppercase digit, an ASCII character, a lone or reversed surrogate, and within 12
 * bytes of end; the general step decides those (their flags, or the decline). Such escapes all
 * have the same flags (not ASCII, not canonical, ensure_ascii's): the caller sets them once for
 * the run. Room: at most 4 bytes are written for every 6 read. Why: a transcript of
 * Cyrillic, CJK and emoji so spelled is an escape every ~6 bytes, and the general step (a
 * digit's branches, a switch, a branch per UTF-8 length) was most of its C summary (QA s26
 * `uescapes`, issue 15). */
static inline const unsigned char *u_run(const unsigned char *p, const unsigned char *end,
                                         unsigned char **o, unsigned char **a, int *nonbmp)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    unsigned char *w = *o, *x = a != NULL ? *a : NULL;
    while (end - p >= 12 && p[0] == '\\' && p[1] == 'u') {
        uint32_t cp = lower_u4(p + 2), word;
        size_t n;
        if (cp < 0x80 || cp >= 0x10000)
            break;
        if ((cp & 0xF800) == 0xD800) { /* a surrogate: a high one, then a low one */
            uint32_t lo = lower_u4(p + 8);
            if (cp >= 0xDC00 || p[6] != '\\' || p[7] != 'u' || lo < 0xDC00 || lo > 0xDFFF)
                break;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            word = (0xF0 | cp >> 18) | (0x80 | (cp >> 12 & 0x3F)) << 8 |
                   (0x80 | (cp >> 6 & 0x3F)) << 16 | (0x80 | (cp & 0x3F)) << 24;
            n = 4;
            *nonbmp = 1;
            p += 12;
        } else { /* two bytes below 0x800, else three: both made, one kept (no branch) */
            uint32_t two = (0xC0 | cp >> 6) | (0x80 | (cp & 0x3F)) << 8;
            uint32_t three = (0xE0 | cp >> 12) | (0x80 | (cp >> 6 & 0x3F)) << 8 |
                             (0x80 | (cp & 0x3F)) << 16;
            int big = cp >= 0x800;
            word = big ? three : two;
            n = 2 + (size_t)big;
            p += 6;
        }
        memcpy(w, &word, 4);
        w += n;
        if (x != NULL) {
            memcpy(x, &word, 4);
            x += n;
        }
    }
    *o = w;
    if (a != NULL)
        *a = x;
#else
    (void)end, (void)o, (void)a, (void)nonbmp;
#endif
    return p;
}

/* The closing quote of a member name that starts at `start` and holds an escape at p, when
 * it is within KM_RAW bytes of start (and the line goes on 16 bytes past them: the loads
 * below stay in it); else NULL. A quote found after a backslash is an escaped one: the name
 * matches no slot then (no name the memo holds ends in a backslash). */
static inline const unsigned char *km_close(const unsigned char *start, const unsigned char *p,
                                            const unsigned char *end)
{
#if defined(__SSE2__)
    if (end - start < KM_RAW + 16)
        return NULL;
    const unsigned char *lim = start + KM_RAW;
    const __m128i quote = _mm_set1_epi8('"');
    for (const unsigned char *q = p; q < lim; q += 16) {
        unsigned mask = (unsigned)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)q), quote));
        if (mask) {
            q += __builtin_ctz(mask);
            return q < lim ? q : NULL;
        }
    }
#else
    (void)start, (void)p, (void)end;
#endif
    return NULL;
}

/* The slot of the name of n (< KM_RAW) bytes at k, with 16 bytes readable past them. */
static inline unsigned km_slot(const unsigned char *k, size_t n)
{
    uint64_t a, b = 0;
    memcpy(&a, k, 8);
    if (n >= 8)
        memcpy(&b, k + n - 8, 8);
    else
        a &= ~0ull >> (8 * (8 - n)); /* (little-endian or not: some bytes of the name only) */
    uint64_t h = (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full) ^ n;
    return (unsigned)((h * 0xFF51AFD7ED558CCDull) >> 59); /* KM_SLOTS = 32 */
}

/* Whether the first n (< KM_RAW) bytes at a and at b are the same (48 readable at both). */
static inline int km_same(const unsigned char *a, const unsigned char *b, size_t n)
{
#if defined(__SSE2__)
    uint64_t eq = 0;
    for (int i = 0; i < KM_RAW; i += 16)
        eq |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
                  _mm_loadu_si128((const __m128i *)(a + i)),
                  _mm_loadu_si128((const __m128i *)(b + i)))) << i;
    uint64_t want = (1ull << n) - 1;
    return (eq & want) == want;
#else
    return memcmp(a, b, n) == 0;
#endif
}

/* Parse the string whose opening quote is at ps->p; write its canonical form to ps->out.
 * For a member name (`key` not NULL) its unescaped bytes are located in *key. */
static int parse_string(P *ps, Mem *key)
{
    const unsigned char *p = ps->p + 1, *end = ps->end;
    const unsigned char *start = p;
    Buf *out = &ps->out;
    ps->str_escaped = 0;
    ps->str_nonbmp = 0;
#if defined(__SSE2__)
    /* A value of at most 15 plain ASCII bytes (tokens, labels, ids): found by one 16-byte load
     * and written by one store, without the loop below and its memcpy call, which were most
     * of the cost of arrays of short strings (`deeparrays` shape; issue 15). Anything else
     * takes the loop. */
    if (key == NULL && end - p >= 16) {
        const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
        const __m128i space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7f);
        __m128i v = _mm_loadu_si128((const __m128i *)p);
        /* signed: bytes >= 0x80 are negative, hence below 0x20 too */
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)),
                                   _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, del)));
        unsigned mask = (unsigned)_mm_movemask_epi8(hit);
        if (mask) {
            unsigned n = (unsigned)__builtin_ctz(mask);
            if (p[n] == '"') {
                if (buf_grow(out, 18) < 0)
                    return -1;
                char *o = out->p + out->len;
                o[0] = '"';
                _mm_storeu_si128((__m128i *)(o + 1), v);
                o[n + 1] = '"';
                out->len += n + 2;
                ps->p = p + n + 1;
                return 0;
            }
        }
    }
#endif
    /* the plain part: spelled exactly as RFC 8785 spells it */
    for (;;) {
        p = plain_run(p, end);
        if (p >= end)
            return NOTOK;
        unsigned c = *p;
        if (c == '"' || c == '\\')
            break;
        if (c < 0x20)
            return NOTOK; /* a raw control character: invalid JSON */
        ps->flags &= ~ST_ASCII;
        if (c == 0x7f) {
            p++;
            continue;
        }
        /* non-ASCII text (CJK, accents, emoji) comes in runs: validated 32 bytes at a time
         * (text_window: ASCII in between included), then character after character where
         * a window stopped short (at the string's end, an escape, invalid text) */
        p = utf8_run(p, end, &ps->str_nonbmp);
        while (p < end && *p >= 0x80) {
            uint32_t cp;
            int n = utf8_seq(p, end, &cp);
            if (n == 0)
                return NOTOK;
            if (n == 4)
                ps->str_nonbmp = 1;
            p += n;
        }
    }
    if (*p == '\\' && key == NULL) {
        /* a value string with escapes: as it stands, when they are all canonical */
        const unsigned char *q = p;
        ps->str_escaped = 1;
        if (canonical_escapes(ps, &q, end)) {
            size_t len = (size_t)(q - start);
            if (buf_grow(out, len + 2) < 0)
                return -1;
            out->p[out->len++] = '"';
            memcpy(out->p + out->len, start, len);
            out->len += len;
            out->p[out->len++] = '"';
            ps->p = q + 1;
            return 0;
        }
    }
    /* A member name with escapes: looked up among those already decoded in this call. Why:
     * json.dumps (ensure_ascii) spells every non-ASCII name so (`"CO\u2082"`, a surrogate
     * pair for `\ud83c\udf21_state`), a log repeats a few names on every line, and decoding
     * one was ~400 instructions (QA s37 `sensorjcs`, issue 15). A name is remembered only
     * when every escape of it took u_run (`simple` below): its bytes then decide all the
     * parse does (its UTF-8, written to out and to the arena alike; the flags u_run clears,
     * an ea_escape, whether it is beyond the BMP). */
    KeyMemo *memo = NULL;
    size_t memo_n = 0;
    if (key != NULL && ps->km_tries < KM_TRIAL + 8 * ps->km_hits) {
        const unsigned char *q = km_close(start, p, end);
        if (q != NULL) {
            ps->km_tries++;
            if (ps->km == NULL)
                ps->km = PyMem_Calloc(KM_SLOTS, sizeof(KeyMemo)); /* (none: no memo) */
            if (ps->km != NULL) {
                memo_n = (size_t)(q - start);
                memo = &ps->km[km_slot(start, memo_n)];
                if (memo->raw_len == memo_n && km_same(memo->raw, start, memo_n)) {
                    size_t d = memo->dec_len;
                    if (buf_grow(out, d + 2) < 0 || buf_grow(&ps->arena, d) < 0)
                        return -1;
                    char *o = out->p + out->len;
                    o[0] = '"';
                    copy_short(o + 1, memo->dec, d);
                    o[d + 1] = '"';
                    out->len += d + 2;
                    key->key_off = ps->arena.len;
                    copy_short(ps->arena.p + ps->arena.len, memo->dec, d);
                    ps->arena.len += d;
                    key->key_len = d;
                    key->in_arena = 1;
                    key->nonbmp = memo->nonbmp;
                    ps->str_escaped = 1;
                    ps->str_nonbmp = memo->nonbmp;
                    ps->flags &= ~(ST_ASCII | ST_MIN | ST_MINX);
                    ps->ea_escape = 1;
                    ps->km_hits++;
                    ps->p = q + 1;
                    return 0;
                }
            }
        }
    }
    size_t plain_len = (size_t)(p - start);
    if (buf_grow(out, plain_len + 2) < 0)
        return -1;
    out->p[out->len++] = '"';
    memcpy(out->p + out->len, start, plain_len);
    out->len += plain_len;
    if (*p == '"') {
        out->p[out->len++] = '"';
        if (key != NULL) {
            key->key_off = (size_t)(start - ps->s);
            key->key_len = plain_len;
            key->in_arena = 0;
            key->nonbmp = (unsigned char)ps->str_nonbmp;
        }
        ps->p = p + 1;
        return 0;
    }
    /* escapes: plain runs are copied whole (as spelled, they are canonical: a valid UTF-8
     * sequence is written as itself), each escape is decoded and written canonically. A
     * string's canonical form is never longer than its spelling (`\uXXXX` at most as long,
     * every other escape or character the same or shorter), so the room for the rest of the
     * line (and plain_copy's 16-byte stores) is taken once: no check per character. */
    ps->str_escaped = 1;
    Buf *arena = &ps->arena;
    size_t arena_start = arena->len;
    size_t rest = (size_t)(end - start) + 1;
    if (buf_grow(out, rest + 16) < 0 || (key != NULL && buf_grow(arena, rest) < 0))
        return -1;
    unsigned char *o = (unsigned char *)out->p + out->len;
    unsigned char *a = key != NULL ? (unsigned char *)arena->p + arena->len : NULL;
    if (key != NULL) {
        memcpy(a, start, plain_len);
        a += plain_len;
    }
    int simple = 1; /* every escape so far taken by u_run (see the memo above) */
    for (;;) {
        const unsigned char *q = plain_copy(p, end, &o);
        if (key != NULL) {
            memcpy(a, p, (size_t)(q - p));
            a += q - p;
        }
        p = q;
        if (p >= end)
            return NOTOK;
        unsigned c = *p;
        if (c == '"')
            break;
        if (c != '\\') {
            const unsigned char *c0 = p;
            simple = 0;
            if (c < 0x20)
                return NOTOK; /* a raw control character: invalid JSON */
            if (c == 0x7f) {
                ps->flags &= ~ST_ASCII;
                p++;
            } else {
                uint32_t cp;
                if (take_utf8(ps, &p, end, &cp) != 0)
                    return NOTOK;
            }
            memcpy(o, c0, (size_t)(p - c0));
            o += p - c0;
            if (key != NULL) {
                memcpy(a, c0, (size_t)(p - c0));
                a += p - c0;
            }
            continue;
        }
        if (end - p < 2)
            return NOTOK;
        unsigned e = p[1];
        if (key == NULL) {
            /* A value's short escape (`\n`, `\"`: canonical, written as read), and a `\u00XX`
             * escape (lowercase) of a printable ASCII character other than `"` and `\`, which
             * Go's encoding/json writes for `<`, `>` and `&` (`\u003c`: the character itself,
             * flags as the switch below sets them): no decoding step, no switch. Go's shell
             * output holds one of the two every ~16 bytes (QA s30 `goescaped`, session 31). */
            if (SHORT_ESC[e]) {
                o[0] = '\\';
                o[1] = (unsigned char)e;
                o += 2;
                p += 2;
                continue;
            }
            if (e == 'u' && end - p >= 6 && p[2] == '0' && p[3] == '0') {
                unsigned h4 = LOWHEX[p[4]], h5 = LOWHEX[p[5]], cp = h4 << 4 | h5;
                if (!((h4 | h5) & 0x80) && cp >= 0x20 && cp < 0x7f && cp != '"' && cp != '\\') {
                    *o++ = (unsigned char)cp;
                    p += 6;
                    ps->flags = (ps->flags & ~(ST_MIN | ST_MINX | ST_EA)) | ST_NOWRITER;
                    continue;
                }
            }
        }
        if (e == 'u') { /* non-ASCII text as ensure_ascii spells it: a run of them at once */
            const unsigned char *q = u_run(p, end, &o, key != NULL ? &a : NULL,
                                           &ps->str_nonbmp);
            if (q != p) {
                p = q;
                ps->flags &= ~(ST_ASCII | ST_MIN | ST_MINX);
                ps->ea_escape = 1;
                continue;
            }
        }
        uint32_t cp;
        int canonical = 1, ea = 1; /* ea: spelled as json.dumps(ensure_ascii=True) does */
        simple = 0;
        switch (e) {
        case '"': cp = '"'; p += 2; break;
        case '\\': cp = '\\'; p += 2; break;
        case '/': cp = '/'; p += 2; canonical = ea = 0; ps->flags |= ST_NOWRITER; break;
        case 'b': cp = '\b'; p += 2; break;
        case 'f': cp = '\f'; p += 2; break;
        case 'n': cp = '\n'; p += 2; break;
        case 'r': cp = '\r'; p += 2; break;
        case 't': cp = '\t'; p += 2; break;
        case 'u': {
            if (read_u4(p + 2, end, &cp) < 0)
                return NOTOK;
            /* canonical only as `\u00xx` (lowercase) for a control character without a
             * short escape */
            canonical = cp < 0x20 && cp != '\b' && cp != '\f' && cp != '\n' && cp != '\r' &&
                        cp != '\t' && (p[5] < 'A' || p[5] > 'F');
            ea = canonical || (cp >= 0x7f && lower_hex4(p + 2));
            if (!lower_hex4(p + 2) || (cp >= 0x20 && cp <= 0x7e))
                ps->flags |= ST_NOWRITER;
            p += 6;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                uint32_t lo;
                if (end - p < 6 || p[0] != '\\' || p[1] != 'u' || read_u4(p + 2, end, &lo) < 0 ||
                    lo < 0xDC00 || lo > 0xDFFF)
                    return NOTOK; /* a lone surrogate: the Python path reports it */
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                ea = ea && lower_hex4(p + 2);
                if (!lower_hex4(p + 2))
                    ps->flags |= ST_NOWRITER;
                p += 6;
                ps->str_nonbmp = 1;
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                return NOTOK;
            }
            if (cp >= 0x80 || cp == 0x7f)
                ps->flags &= ~ST_ASCII; /* ensure_ascii spells it so; RFC 8785 does not */
            break;
        }
        default:
            return NOTOK;
        }
        if (!canonical) {
            ps->flags &= ~(ST_MIN | ST_MINX);
            if (ea)
                ps->ea_escape = 1;
            else
                ps->flags &= ~ST_EA;
        }
        o += put_escaped_raw(o, cp);
        if (key != NULL)
            a += put_utf8_raw(a, cp);
    }
    out->len = (size_t)((char *)o - out->p);
    if (key != NULL)
        arena->len = (size_t)((char *)a - arena->p);
    if (p >= end)
        return NOTOK;
    PUTC(out, '"');
    if (key != NULL) {
        key->key_off = arena_start;
        key->key_len = arena->len - arena_start;
        key->in_arena = 1;
        key->nonbmp = (unsigned char)ps->str_nonbmp;
        if (memo != NULL && simple && (size_t)(p - start) == memo_n) {
            memo->raw_len = (unsigned char)memo_n;
            memcpy(memo->raw, start, memo_n);
            memo->dec_len = (unsigned char)key->key_len; /* (never longer than its spelling) */
            memcpy(memo->dec, arena->p + arena_start, key->key_len);
            memo->nonbmp = key->nonbmp;
        }
    }
    ps->p = p + 1;
    return 0;
}

/* ---- numbers ---------------------------------------------------------------------------- */

/* The shortest digits that round-trip (Python's repr, as ECMAScript requires): x (finite,
 * > 0) = 0.d * 10^n with k digits, no leading or trailing zero. */
static int shortest_digits_dtoa(double x, char *d, int *k, int *n)
{
    char *r = PyOS_double_to_string(x, 'r', 0, 0, NULL);
    if (r == NULL)
        return -1;
    char digits[40];
    int nd = 0, int_len = 0, seen_dot = 0, exponent = 0;
    const char *q = r;
    for (; *q && *q != 'e'; q++) {
        if (*q == '.') {
            seen_dot = 1;
            continue;
        }
        if (nd < 39)
            digits[nd++] = *q;
        if (!seen_dot)
            int_len++;
    }
    if (*q == 'e')
        exponent = atoi(q + 1);
    PyMem_Free(r);
    int lead = 0;
    while (lead < nd && digits[lead] == '0')
        lead++;
    int last = nd;
    while (last > lead && digits[last - 1] == '0')
        last--;
    *k = last - lead;
    memcpy(d, digits + lead, (size_t)*k);
    *n = int_len + exponent - lead;
    return 0;
}

#if defined(__SIZEOF_INT128__)
/* Ryu (Ulf Adams, "Ryu: fast float-to-string conversion", PLDI 2018): the shortest digits
 * that round-trip, the closest of them to x, ties to even: what Python's repr (dtoa mode 0)
 * and ECMAScript give. Python's dtoa works in big integers, ~7,000 instructions a float: on
 * payloads full of 17-digit floats that was a third of the engine's time. Tables:
 * scripts/gen_pow5_tables.py; tests/formats/test_native_jcs.py holds the digits to repr. */
#include "_jcs_pow5.h"

static inline uint32_t pow5bits(int32_t e) { return (uint32_t)(((uint32_t)e * 1217359) >> 19) + 1; }
static inline uint32_t log10_pow2(int32_t e) { return ((uint32_t)e * 78913) >> 18; }
static inline uint32_t log10_pow5(int32_t e) { return ((uint32_t)e * 732923) >> 20; }

static inline uint32_t pow5_factor(uint64_t v)
{
    uint32_t count = 0;
    while (v % 5 == 0) {
        v /= 5;
        count++;
    }
    return count;
}

static inline uint64_t mul_shift64(uint64_t m, const uint64_t *mul, int32_t j)
{
    __uint128_t b0 = (__uint128_t)m * mul[0], b2 = (__uint128_t)m * mul[1];
    return (uint64_t)(((b0 >> 64) + b2) >> (j - 64));
}

/* x (finite, > 0) = *out * 10^*e10 with the fewest digits in *out. */
static void ryu_d2d(double x, uint64_t *out, int32_t *e10out)
{
    uint64_t bits;
    memcpy(&bits, &x, 8);
    uint64_t mant = bits & ((1ull << 52) - 1);
    uint32_t expo = (uint32_t)(bits >> 52) & 0x7ff;
    int32_t e2;
    uint64_t m2;
    if (expo == 0) {
        e2 = 1 - 1023 - 52 - 2;
        m2 = mant;
    } else {
        e2 = (int32_t)expo - 1023 - 52 - 2;
        m2 = (1ull << 52) | mant;
    }
    int accept = (m2 & 1) == 0;
    uint64_t mv = 4 * m2;
    uint32_t mm_shift = mant != 0 || expo <= 1;
    uint64_t vr, vp, vm;
    int32_t e10;
    int vm_tz = 0, vr_tz = 0;
    if (e2 >= 0) {
        uint32_t q = log10_pow2(e2) - (e2 > 3);
        e10 = (int32_t)q;
        int32_t k = 125 + (int32_t)pow5bits((int32_t)q) - 1;
        int32_t i = -e2 + (int32_t)q + k;
        vr = mul_shift64(4 * m2, POW5_INV_SPLIT[q], i);
        vp = mul_shift64(4 * m2 + 2, POW5_INV_SPLIT[q], i);
        vm = mul_shift64(4 * m2 - 1 - mm_shift, POW5_INV_SPLIT[q], i);
        if (q <= 21) {
            if (mv % 5 == 0)
                vr_tz = pow5_factor(mv) >= q;
            else if (accept)
                vm_tz = pow5_factor(mv - 1 - mm_shift) >= q;
            else
                vp -= pow5_factor(mv + 2) >= q;
        }
    } else {
        uint32_t q = log10_pow5(-e2) - (-e2 > 1);
        e10 = (int32_t)q + e2;
        int32_t i = -e2 - (int32_t)q;
        int32_t k = (int32_t)pow5bits(i) - 125;
        int32_t j = (int32_t)q - k;
        vr = mul_shift64(4 * m2, POW5_SPLIT[i], j);
        vp = mul_shift64(4 * m2 + 2, POW5_SPLIT[i], j);
        vm = mul_shift64(4 * m2 - 1 - mm_shift, POW5_SPLIT[i], j);
        if (q <= 1) {
            vr_tz = 1;
            if (accept)
                vm_tz = mm_shift == 1;
            else
                vp--;
        } else if (q < 63) {
            vr_tz = (mv & ((1ull << q) - 1)) == 0;
        }
    }
    int32_t removed = 0;
    unsigned last = 0;
    uint64_t output;
    if (vm_tz || vr_tz) {
        while (vp / 10 > vm / 10) {
            vm_tz &= vm % 10 == 0;
            vr_tz &= last == 0;
            last = (unsigned)(vr % 10);
            vr /= 10;
            vp /= 10;
            vm /= 10;
            removed++;
        }
        if (vm_tz) {
            while (vm % 10 == 0) {
                vr_tz &= last == 0;
                last = (unsigned)(vr % 10);
                vr /= 10;
                vp /= 10;
                vm /= 10;
                removed++;
            }
        }
        if (vr_tz && last == 5 && vr % 2 == 0)
            last = 4; /* exactly half way: round to even */
        output = vr + ((vr == vm && (!accept || !vm_tz)) || last >= 5);
    } else {
        int round_up = 0;
        while (vp / 10 > vm / 10) {
            round_up = vr % 10 >= 5;
            vr /= 10;
            vp /= 10;
            vm /= 10;
            removed++;
        }
        output = vr + (vr == vm || round_up);
    }
    *out = output;
    *e10out = e10 + removed;
}

/* x (finite, > 0) = 0.d * 10^n, d the k shortest round-trip digits (no trailing zero). */
static int shortest_digits(double x, char *d, int *k, int *n)
{
    uint64_t v;
    int32_t e10;
    ryu_d2d(x, &v, &e10);
    while (v % 10 == 0) {
        v /= 10;
        e10++;
    }
    char t[24];
    int len = 0;
    while (v) {
        t[len++] = (char)('0' + v % 10);
        v /= 10;
    }
    for (int i = 0; i < len; i++)
        d[i] = t[len - 1 - i];
    *k = len;
    *n = len + e10;
    return 0;
}
#else
#define shortest_digits shortest_digits_dtoa
#endif

enum { SP_ES6, SP_REPR, SP_ORJSON };

/* x = 0.d * 10^n in plain decimal notation; `dot0`: an integral value ends in `.0`. */
static int plain_decimal(char *t, const char *d, int k, int n, int dot0)
{
    int len = 0;
    if (n <= 0) {
        t[len++] = '0';
        t[len++] = '.';
        for (int i = 0; i < -n; i++)
            t[len++] = '0';
        memcpy(t + len, d, (size_t)k);
        return len + k;
    }
    if (k <= n) {
        memcpy(t, d, (size_t)k);
        len = k;
        for (int i = 0; i < n - k; i++)
            t[len++] = '0';
        if (dot0) {
            t[len++] = '.';
            t[len++] = '0';
        }
        return len;
    }
    memcpy(t, d, (size_t)n);
    len = n;
    t[len++] = '.';
    memcpy(t + len, d + n, (size_t)(k - n));
    return len + k - n;
}

/* One float (finite, > 0, as digits) the way a writer spells it, into t (64 bytes):
 * ES6 (RFC 8785), Python's repr (json.dumps) or orjson's (checked against orjson at import by
 * trajectory.py: where the installed orjson differs, this spelling is not used). */
static int spell_digits(char *t, const char *d, int k, int n, int how)
{
    int e = n - 1, len;
    switch (how) {
    case SP_ES6:
        if (k <= n && n <= 21)
            return plain_decimal(t, d, k, n, 0);
        if (-6 < n && n <= 21)
            return plain_decimal(t, d, k, n, 0);
        break;
    case SP_REPR:
        if (-4 < n && n <= 16)
            return plain_decimal(t, d, k, n, 1);
        break;
    default:
        if (-5 < n && n <= 16)
            return plain_decimal(t, d, k, n, 1);
        break;
    }
    t[0] = d[0];
    len = 1;
    if (k > 1) {
        t[len++] = '.';
        memcpy(t + len, d + 1, (size_t)(k - 1));
        len += k - 1;
    }
    /* the exponent: `e+21`, `e-07` (repr pads to two digits), `e-7` */
    t[len++] = 'e';
    t[len++] = e >= 0 ? '+' : '-';
    unsigned ae = (unsigned)(e >= 0 ? e : -e);
    if (ae >= 100)
        t[len++] = (char)('0' + ae / 100);
    if (ae >= 10 || how == SP_REPR)
        t[len++] = (char)('0' + ae / 10 % 10);
    t[len++] = (char)('0' + ae % 10);
    return len;
}

/* The three spellings of a finite double; lengths in len[3], texts in t[3][72]. */
static int spellings(double x, char t[3][72], int len[3])
{
    if (x == 0) {
        int neg = signbit(x) != 0;
        strcpy(t[SP_ES6], "0");
        strcpy(t[SP_REPR], neg ? "-0.0" : "0.0");
        strcpy(t[SP_ORJSON], neg ? "-0.0" : "0.0");
        len[SP_ES6] = 1;
        len[SP_REPR] = len[SP_ORJSON] = neg ? 4 : 3;
        return 0;
    }
    int neg = x < 0;
    char d[40];
    int k, n;
    if (shortest_digits(neg ? -x : x, d, &k, &n) < 0)
        return -1;
    for (int how = 0; how < 3; how++) {
        if (neg)
            t[how][0] = '-';
        len[how] = neg + spell_digits(t[how] + neg, d, k, n, how);
    }
    return 0;
}

static inline int is_digit(unsigned c) { return c >= '0' && c <= '9'; }

/* Whether the token s (len bytes, no sign) is repr's spelling of 0.d * 10^n (k digits, -8 <=
 * n <= -4): `d[.ddd]e-0X`, X = 1 - n. */
static inline int repr_tiny(const unsigned char *s, size_t len, const char *d, int k, long n)
{
    size_t m = k > 1 ? (size_t)k + 1 : 1; /* the mantissa's bytes */
    if (len != m + 4 || s[0] != (unsigned char)d[0])
        return 0;
    if (k > 1 && (s[1] != '.' || memcmp(s + 2, d + 1, (size_t)k - 1) != 0))
        return 0;
    return s[m] == 'e' && s[m + 1] == '-' && s[m + 2] == '0' && s[m + 3] == '0' + (1 - n);
}

/* Write the RFC 8785 spelling of a float token `st` (len bytes) and note which writers'
 * spellings (RFC 8785, repr, orjson: t, tl) the token is. */
static const int SPELL_FLAG[3] = {[SP_ES6] = ST_MIN, [SP_REPR] = ST_F_REPR,
                                  [SP_ORJSON] = ST_F_ORJSON};

/* (tl[how] < 0: that spelling was not built, its flag being cleared already) */
static int put_float(P *ps, char t[3][72], const int tl[3], const unsigned char *st, size_t len)
{
    PUT(&ps->out, t[SP_ES6], (size_t)tl[SP_ES6]);
    for (int how = 0; how < 3; how++)
        if ((size_t)tl[how] != len || memcmp(t[how], st, len) != 0)
            ps->flags &= ~SPELL_FLAG[how];
    return 0;
}

/* Past the digits from p (none: p). 16 bytes a step where the line has them: a float token
 * of `random()` holds 17 digits, and a branch per digit was most of its scan (issue 15). */
static inline const unsigned char *digit_run(const unsigned char *p, const unsigned char *end)
{
#if defined(__SSE2__)
    const __m128i below = _mm_set1_epi8('0'), above = _mm_set1_epi8('9');
    while (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)p);
        /* signed: bytes >= 0x80 are negative, hence below '0' too */
        unsigned mask = (unsigned)_mm_movemask_epi8(
            _mm_or_si128(_mm_cmplt_epi8(v, below), _mm_cmpgt_epi8(v, above)));
        if (mask)
            return p + __builtin_ctz(mask);
        p += 16;
    }
#endif
    while (p < end && is_digit(*p))
        p++;
    return p;
}

/* 10^0 .. 10^308, each the double nearest it (as the compiler reads a literal). */
static const double P10[309] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31,
    1e32, 1e33, 1e34, 1e35, 1e36, 1e37, 1e38, 1e39, 1e40, 1e41, 1e42, 1e43, 1e44, 1e45, 1e46,
    1e47, 1e48, 1e49, 1e50, 1e51, 1e52, 1e53, 1e54, 1e55, 1e56, 1e57, 1e58, 1e59, 1e60, 1e61,
    1e62, 1e63, 1e64, 1e65, 1e66, 1e67, 1e68, 1e69, 1e70, 1e71, 1e72, 1e73, 1e74, 1e75, 1e76,
    1e77, 1e78, 1e79, 1e80, 1e81, 1e82, 1e83, 1e84, 1e85, 1e86, 1e87, 1e88, 1e89, 1e90, 1e91,
    1e92, 1e93, 1e94, 1e95, 1e96, 1e97, 1e98, 1e99, 1e100, 1e101, 1e102, 1e103, 1e104, 1e105,
    1e106, 1e107, 1e108, 1e109, 1e110, 1e111, 1e112, 1e113, 1e114, 1e115, 1e116, 1e117, 1e118,
    1e119, 1e120, 1e121, 1e122, 1e123, 1e124, 1e125, 1e126, 1e127, 1e128, 1e129, 1e130, 1e131,
    1e132, 1e133, 1e134, 1e135, 1e136, 1e137, 1e138, 1e139, 1e140, 1e141, 1e142, 1e143, 1e144,
    1e145, 1e146, 1e147, 1e148, 1e149, 1e150, 1e151, 1e152, 1e153, 1e154, 1e155, 1e156, 1e157,
    1e158, 1e159, 1e160, 1e161, 1e162, 1e163, 1e164, 1e165, 1e166, 1e167, 1e168, 1e169, 1e170,
    1e171, 1e172, 1e173, 1e174, 1e175, 1e176, 1e177, 1e178, 1e179, 1e180, 1e181, 1e182, 1e183,
    1e184, 1e185, 1e186, 1e187, 1e188, 1e189, 1e190, 1e191, 1e192, 1e193, 1e194, 1e195, 1e196,
    1e197, 1e198, 1e199, 1e200, 1e201, 1e202, 1e203, 1e204, 1e205, 1e206, 1e207, 1e208, 1e209,
    1e210, 1e211, 1e212, 1e213, 1e214, 1e215, 1e216, 1e217, 1e218, 1e219, 1e220, 1e221, 1e222,
    1e223, 1e224, 1e225, 1e226, 1e227, 1e228, 1e229, 1e230, 1e231, 1e232, 1e233, 1e234, 1e235,
    1e236, 1e237, 1e238, 1e239, 1e240, 1e241, 1e242, 1e243, 1e244, 1e245, 1e246, 1e247, 1e248,
    1e249, 1e250, 1e251, 1e252, 1e253, 1e254, 1e255, 1e256, 1e257, 1e258, 1e259, 1e260, 1e261,
    1e262, 1e263, 1e264, 1e265, 1e266, 1e267, 1e268, 1e269, 1e270, 1e271, 1e272, 1e273, 1e274,
    1e275, 1e276, 1e277, 1e278, 1e279, 1e280, 1e281, 1e282, 1e283, 1e284, 1e285, 1e286, 1e287,
    1e288, 1e289, 1e290, 1e291, 1e292, 1e293, 1e294, 1e295, 1e296, 1e297, 1e298, 1e299, 1e300,
    1e301, 1e302, 1e303, 1e304, 1e305, 1e306, 1e307, 1e308};

/* The value of 8 ASCII digits, the first the most significant (SWAR: pairs, then fours,
 * then the eight combined by three multiplications). */
static inline uint64_t eight_digits(const char *c)
{
    uint64_t v;
    memcpy(&v, c, 8);
    v -= 0x3030303030303030ull;
    v = (v * 10 + (v >> 8)) & 0x00FF00FF00FF00FFull;
    v = (v * 100 + (v >> 16)) & 0x0000FFFF0000FFFFull;
    return (v * 10000 + (v >> 32)) & 0xFFFFFFFFull;
}

/* The integer of the k (1 to 17) digits at d, which has 24 bytes readable: 8 digits a SWAR
 * step, the last step's t < 8 digits moved behind '0's in the register (one load, no copy),
 * rather than a multiply-add a digit (a chain of 17 as long as the token: a fifth of
 * parse_number's time on 17-digit floats, `numbers`; issue 15). */
static inline uint64_t digits_value(const char *d, int k)
{
    static const uint64_t P10U[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
    uint64_t D = 0;
    int i = 0;
    for (; k - i >= 8; i += 8)
        D = D * 100000000u + eight_digits(d + i);
    int t = k - i;
    if (t > 0) {
        uint64_t v; /* the first digit in the lowest byte: shifted up, '0's below it */
        memcpy(&v, d + i, 8);
        v = (v << (8 * (8 - t))) | (0x3030303030303030ull >> (8 * t));
        char c[8];
        memcpy(c, &v, 8);
        D = D * P10U[t] + eight_digits(c);
    }
    return D;
}

/* The integer of a float token's k (<= 17) significant digits: the integer part's first
 * ones at i0 (ni of them), then the fraction's from fd (int_zero: all of them from fd), read
 * from the line itself where 24 bytes are readable past fd, else from their copy d. Why:
 * read back from d just after the copy was written, the loads waited on its stores (a tenth
 * of parse_number's samples on 17-digit floats, `numbers`; issue 15). */
static inline uint64_t token_digits(const unsigned char *i0, size_t ni, const unsigned char *fd,
                                    int k, int int_zero, const unsigned char *end, const char *d)
{
    static const uint64_t P10U[18] = {
        1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
        100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
        10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
        100000000000000000ull};
    if (end - fd < 24)
        return digits_value(d, k);
    if (int_zero || (size_t)k <= ni)
        return digits_value((const char *)(int_zero ? fd : i0), k);
    return digits_value((const char *)i0, (int)ni) * P10U[k - (int)ni] +
           digits_value((const char *)fd, k - (int)ni);
}

/* Whether the decimal 0.d * 10^n (k <= 17 digits, no leading or trailing zero) is the shortest
 * round-trip spelling of some double: then it is that double's RFC 8785 digits as they stand
 * (that double's shortest digits denote the same number, hence round-trip to it), and the
 * token needs neither a parse nor a dtoa. Every shortest writer (orjson, repr, JavaScript)
 * spells a float so; any other token gets 0 and takes the exact path. The candidates are the
 * double nearest D * 10^q computed in at most three roundings (a few units in the last place
 * off; in the subnormals, a few of their units) and its neighbours, nearest first: a wrong
 * candidate only fails the test, so the check is exact whatever the arithmetic. Beyond
 * 10^+-22 (1.2345678901234567e-08, 2.2250738585072014e-308, 5e-324) the exact path cost
 * ~4,000 instructions a float, in Python's big-integer strtod. */
/* For a token of 16 significant digits D * 10^-j (D <= 2^53, 1 <= j <= 22): 1 when it is its
 * double's shortest spelling, 0 when it is not, -1 when this cannot tell (then Ryu decides).
 * D and 10^j are exact doubles, so D / 10^j is the double x the token reads as, rounded once
 * (Clinger's fast path), and so are the 15-digit decimals either side of the token,
 * floor(D / 10) and the next, over 10^(j-1). When one of them reads as x, x has a spelling
 * shorter than the token's: 0. When neither does, no decimal of 15 digits or fewer reads as x
 * (the two bracket the token, and what reads as x is an interval around it of at most
 * 10^-j either side), so x's shortest spelling has 16 digits, and it is the 16-digit decimal
 * nearest x (Ryu's choice among those that read as x): the token is when x * 10^j lies within
 * 1/2 of D, x * 10^j - D computed with an error far below the margin kept. Near 1/2 (a tie)
 * or farther (the nearest decimal may then not read as x, at a power of two): -1. Why: a Ryu
 * call per such token was ~10 % of the C summary on full-precision floats (`points`,
 * `numbers`; issue 15), and half of their 16-17 digit tokens are of this kind. No fma: a
 * call into libm, which the module does not link. */
static inline int shortest16(uint64_t D, int j)
{
#if defined(__FLT_EVAL_METHOD__) && __FLT_EVAL_METHOD__ == 0
    double x = (double)D / P10[j];
    uint64_t c = D / 10;
    double lo = (double)c / P10[j - 1], hi = (double)(c + 1) / P10[j - 1];
    if (lo == x || hi == x)
        return 0;
    /* x * 10^j - D, its rounding error far below the margin: the product's own error exactly
     * (Dekker: each factor split in halves of 26 and 27 bits), and p - D exact (Sterbenz: p and D
     * within a factor of 2) */
    double P = P10[j], p = x * P;
    double xa = 134217729.0 * x, xh = xa - (xa - x), xl = x - xh;
    double pa = 134217729.0 * P, ph = pa - (pa - P), pl = P - ph;
    double err = ((xh * ph - p) + xh * pl + xl * ph) + xl * pl;
    double r = (p - (double)D) + err;
    return fabs(r) < 0.5 - 0x1p-30 ? 1 : -1;
#else
    (void)D, (void)j;
    return -1;
#endif
}

/* The same for a token of 17 significant digits D * 10^-j (D / 10 < 2^53, 1 <= j <= 22): the
 * 16-digit decimals either side of it, floor(D / 10) and the next, over 10^(j-1), are exact
 * doubles read as such, but D is not, so D / 10^j may be a unit off the double the token
 * reads as. It is checked instead of assumed: x * 10^j - D, from Dekker's exact product and
 * D split into the double nearest it and the integer left over, within 1/2 (less a margin)
 * means D reads as x, as x is no power of two and so what reads as it reaches more than
 * 10^-j * 0.55 either side (its unit in the last place over 10^-j * 1.1 at 17 digits); and
 * then D is the 17-digit decimal nearest x. Then: a 16-digit neighbour reading as x, not the
 * shortest (0), else the shortest (1); anything else, -1 (Ryu). Why: as shortest16's, for
 * `random()` floats written with 17 digits (about as many as those of 16 in `points`). */
static inline int shortest17(uint64_t D, int j)
{
#if defined(__FLT_EVAL_METHOD__) && __FLT_EVAL_METHOD__ == 0
    double P = P10[j], x = (double)D / P;
    double Dh = (double)D;
    double Dl = (double)(int64_t)(D - (uint64_t)Dh); /* (a few units: exact) */
    double pa = 134217729.0 * P, ph = pa - (pa - P), pl = P - ph;
    for (int tries = 0;; tries++) { /* x, then (two roundings: a unit off) its neighbour */
        uint64_t bits;
        memcpy(&bits, &x, 8);
        if (!(bits & ((1ull << 52) - 1)))
            return -1; /* a power of two: what reads as it is narrower below */
        double p = x * P;
        double xa = 134217729.0 * x, xh = xa - (xa - x), xl = x - xh;
        double err = ((xh * ph - p) + xh * pl + xl * ph) + xl * pl;
        double r = (p - Dh) + (err - Dl);
        if (fabs(r) < 0.5 - 0x1p-30)
            break;
        if (tries || fabs(r) < 0.5 + 0x1p-30)
            return -1;
        bits += r > 0 ? -1 : 1; /* (x positive: its bits count its units in order) */
        memcpy(&x, &bits, 8);
    }
    uint64_t c = D / 10;
    double lo = (double)c / P10[j - 1], hi = (double)(c + 1) / P10[j - 1];
    return lo == x || hi == x ? 0 : 1;
#else
    (void)D, (void)j;
    return -1;
#endif
}

static int token_is_shortest(uint64_t D, int k, long n)
{
#if defined(__SIZEOF_INT128__)
    long q = n - k;
    if (k < 1 || k > 17 || q < -308 - 308 || q > 308)
        return 0;
    if (q >= -22 && q <= -1 && ((k == 16 && D <= (1ull << 53)) ||
                                (k == 17 && D / 10 < (1ull << 53)))) {
        int fast = k == 16 ? shortest16(D, (int)-q) : shortest17(D, (int)-q);
        if (fast >= 0)
            return fast;
    }
    double x0;
    if (q >= 0)
        x0 = (double)D * P10[q];
    else if (q >= -308)
        x0 = (double)D / P10[-q];
    else /* the subnormals: 5e-324 is 5 * 10^-324 */
        x0 = (double)D / P10[308] / P10[-q - 308];
    if (!(x0 > 0) || !isfinite(x0))
        return 0;
    /* x0, then its neighbours: x0 - 1, x0 + 1, x0 - 2, x0 + 2 units in the last place (the
     * bits of a positive double count its units in order). Ryu's digits are compared as the
     * integer it gives (no digit characters: 17 divisions a float). When x0's digits are as
     * many as the token's and differ, the token's double lies on the side of x0 where the
     * token's digits lie (shortest digits are in their double's rounding interval, and the
     * intervals are in order): only that side's two neighbours are tried (a sixth of the
     * `numbers` shape's 16-17 digit tokens missed x0, and took two Ryu calls more). */
    uint64_t bits;
    memcpy(&bits, &x0, 8);
    static const int STEP[5] = {0, -1, 1, -2, 2};
    int side = 0;
    for (int c = 0; c < 5; c++) {
        if ((side > 0 && STEP[c] < 0) || (side < 0 && STEP[c] > 0))
            continue;
        if (STEP[c] < 0 && bits < (uint64_t)-STEP[c])
            continue;
        uint64_t b = bits + (uint64_t)(int64_t)STEP[c];
        double x;
        memcpy(&x, &b, 8);
        if (!(x > 0) || !isfinite(x))
            continue;
        uint64_t v;
        int32_t e10;
        ryu_d2d(x, &v, &e10);
        while (v % 10 == 0) {
            v /= 10;
            e10++;
        }
        if (e10 == q && v == D)
            return 1;
        if (c == 0 && e10 == q)
            side = D > v ? 1 : -1;
    }
#else
    (void)D, (void)k, (void)n;
#endif
    return 0;
}

/* Whether an integer's 16 or more digits (no sign, no leading zero) are at most 2^53 - 1:
 * then the token is its own RFC 8785 form, as a shorter one is. Why: microsecond timestamps
 * (1752156002500000) and 16-digit ids are below it, and declining them sent every line of a
 * telemetry payload through the Python path (`numbers` shape, issue 15). */
static inline int safe_16(const unsigned char *d, size_t ndig)
{
    return ndig == 16 && memcmp(d, "9007199254740991", 16) <= 0;
}

static int parse_number(P *ps)
{
    /* One pass over the token: the spans of its integer part, fraction and exponent (each a
     * digit_run), from which the significant digits, their count and the point's place are
     * taken without reading a digit twice (was: a scan for the syntax, then a loop per
     * character to collect the digits; `numbers` shape, issue 15). */
    const unsigned char *st = ps->p, *p = ps->p, *end = ps->end;
    int neg = *p == '-';
    p += neg;
    const unsigned char *i0 = p;
    if (p >= end || !is_digit(*p))
        return NOTOK;
    p = *p == '0' ? p + 1 : digit_run(p, end); /* (JSON: no digit after a leading 0) */
    size_t ni = (size_t)(p - i0);
    const unsigned char *f0 = p;
    size_t nf = 0;
    if (p < end && *p == '.') {
        f0 = p + 1;
        p = digit_run(f0, end);
        nf = (size_t)(p - f0);
        if (nf == 0)
            return NOTOK;
    }
    int exponent = 0;
    long e10 = 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        int neg_e = 0;
        if (p < end && (*p == '+' || *p == '-'))
            neg_e = *p++ == '-';
        const unsigned char *e0 = p;
        p = digit_run(p, end);
        if (p == e0)
            return NOTOK;
        for (const unsigned char *c = e0; c < p && e10 < 100000; c++)
            e10 = e10 * 10 + (*c - '0');
        if (neg_e)
            e10 = -e10;
        exponent = 1;
    }
    size_t len = (size_t)(p - st);
    ps->p = p;
    if (!exponent && nf == 0) {
        if (ni > 15 && !safe_16(i0, ni))
            return NOTOK; /* beyond 2^53 - 1: the Python path applies the rule */
        if (len == 2 && neg && st[1] == '0') { /* -0 */
            ps->flags &= ~(ST_MIN | ST_MINX | ST_EA);
            PUTC(&ps->out, '0');
            return 0;
        }
        PUT(&ps->out, st, len);
        return 0;
    }
    ps->flags |= ST_FLOAT;
    /* An integral float of at most 15 integer digits spelled `ddd.0` (`-0.0`, `21.0`, `-183.0`:
     * Python's repr and orjson both write such a value so, for n <= 16): RFC 8785 writes
     * its integer digits (`0` for either zero), so only ST_MIN is lost, as put_float would
     * find comparing the three spellings built. Why: json.dumps writes every whole float so
     * (a sensor log's readings; QA s37 `sensorjcs`, issue 15), and building and comparing
     * three spellings was ~200 instructions a token. */
    if (!exponent && nf == 1 && *f0 == '0' && ni <= 15) {
        ps->flags &= ~ST_MIN;
        if (*i0 == '0') {
            PUTC(&ps->out, '0');
            return 0;
        }
        size_t n = (size_t)neg + ni; /* (at most 16 bytes) */
        if (buf_grow(&ps->out, n) < 0)
            return -1;
        copy_short(ps->out.p + ps->out.len, st, n);
        ps->out.len += n;
        return 0;
    }
    /* The significant digits: from the first that is not 0 (the integer part's first, unless
     * it is `0`: then the fraction's first after its leading zeros) to the last that is not
     * 0 (trailing zeros of the integer part still count for the point). */
    int int_zero = *i0 == '0';
    size_t lead = 0;
    if (int_zero)
        while (lead < nf && f0[lead] == '0')
            lead++;
    int any = !int_zero || lead < nf; /* a digit other than 0 in the mantissa */
    if (any) {
        /* A token of at most 15 significant digits is exactly the shortest round-trip form
         * of its double, less trailing zeros (DBL_DIG = 15: such a decimal comes back from
         * the double unchanged at 15 digits, and so does any shorter one of the same double):
         * its digits need no parse and no dtoa. */
        size_t total = int_zero ? nf - lead : ni + nf; /* from the first significant digit */
        size_t tz = 0;
        if (nf > 0)
            while (tz < nf && f0[nf - 1 - tz] == '0')
                tz++;
        if (tz == nf && !int_zero) /* a fraction of zeros only: the integer part's too */
            while (tz < total && i0[ni - 1 - (tz - nf)] == '0')
                tz++;
        int k = (int)(total - tz);
        /* value = 0.d * 10^n; far from the subnormals (below ~1e-307 fewer digits survive)
         * and from overflow. The leading zeros count: 0.000...4 is small whatever its exponent */
        long n = (int_zero ? -(long)lead : (long)ni) + e10;
        /* A plain decimal of at most 15 significant digits whose point all three writers
         * spell plainly (see below) before the copy of its digits, which only the other
         * spellings need: written as it stands (a language model's log-probabilities, scores
         * rounded to a few decimals: QA s26 `logprobs`, issue 15) */
        if (k <= 15 && !exponent && nf > 0 && st[len - 1] != '0' && n > -4 && n <= 16) {
            PUT(&ps->out, st, len);
            return 0;
        }
        char d[40];
        if (k <= 17) { /* the digits as characters: spell_digits and token_is_shortest */
            size_t from_int = int_zero ? 0 : (ni < (size_t)k ? ni : (size_t)k);
            memcpy(d, i0, from_int);
            memcpy(d + from_int, f0 + (int_zero ? lead : 0), (size_t)k - from_int);
        }
        if ((k <= 15 && n > -290 && n < 290) || (k <= 17 &&
             token_is_shortest(token_digits(i0, ni, f0 + (int_zero ? lead : 0), k, int_zero,
                                            end, d), k, n))) {
            /* A plain decimal with a fraction ending in a non-zero digit, its point where
             * all three writers spell the value plainly (-4 < n <= 16), is spelled by each
             * of them exactly as it stands: the shortest digits are its digits (above), and
             * each writes `0.` and the leading zeros for n <= 0, else the digits with the
             * point after the n-th. Written as it stands, no flag lost, no spelling built
             * (telemetry full of random() floats, `numbers` shape). */
            if (!exponent && nf > 0 && st[len - 1] != '0' && n > -4 && n <= 16) {
                PUT(&ps->out, st, len);
                return 0;
            }
            /* Far from 1 (n <= -6 or n > 21) RFC 8785 and orjson both write `d.ddde-7` and
             * `de+21`, the same bytes, and repr too where the exponent has two digits (it
             * writes `e-07`): a token spelled so is written as it stands, one spelling built
             * and compared instead of three (`numbers`: deltas of 1e-7 and less, 6.02e+23). */
            char t[3][72];
            int tl[3] = {-1, -1, -1};
            /* repr's own spelling of a value at n = -8..-4, its exponent padded (`1.5e-07`,
             * `3.5e-05`; RFC 8785 writes `1.5e-7` and `0.000035`, orjson `1.5e-7` and
             * `3.5e-5` or `0.000035`): the ES6 one written, MIN and F_ORJSON lost, F_REPR
             * kept, as put_float would find building the three (json.dumps' tiny readings:
             * QA s37 `sensorjcs`, QA s34 `tuplelog`; issue 15) */
            if (exponent && n >= -8 && n <= -4 && repr_tiny(st + neg, len - neg, d, k, n)) {
                if (neg)
                    t[SP_ES6][0] = '-';
                tl[SP_ES6] = neg + spell_digits(t[SP_ES6] + neg, d, k, (int)n, SP_ES6);
                ps->flags &= ~(ST_MIN | ST_F_ORJSON);
                PUT(&ps->out, t[SP_ES6], (size_t)tl[SP_ES6]);
                return 0;
            }
            if (exponent && (n <= -6 || n > 21)) {
                int es = spell_digits(t[SP_ES6] + neg, d, k, (int)n, SP_ES6);
                if ((size_t)(es + neg) == len &&
                    memcmp(t[SP_ES6] + neg, st + neg, (size_t)es) == 0) {
                    PUT(&ps->out, st, len);
                    if (n >= -8 && n <= -6)
                        ps->flags &= ~ST_F_REPR; /* e-07, e-08, e-09 */
                    return 0;
                }
                if (neg) /* (the ES6 spelling is kept for below: repr's `e-08` is not it) */
                    t[SP_ES6][0] = '-';
                tl[SP_ES6] = neg + es;
            }
            /* The writers' spellings whose flag an earlier float of the line cleared are not
             * built: only the ES6 one is written, and put_float can only clear a flag (a
             * log of Python's json.dumps: its exponent floats built two spellings, not three;
             * QA s34's `tuplelog`, issue 15) */
            for (int how = 0; how < 3; how++) {
                if (how == SP_ES6 ? tl[SP_ES6] >= 0 : !(ps->flags & SPELL_FLAG[how]))
                    continue; /* (ES6's built above; tl[how] stays -1) */
                if (neg)
                    t[how][0] = '-';
                tl[how] = neg + spell_digits(t[how] + neg, d, k, (int)n, how);
            }
            return put_float(ps, t, tl, st, len);
        }
    }
    char text[512];
    if (len >= sizeof(text))
        return NOTOK;
    if (!any) {
        /* a zero (`0.0`, `-0.0`, `0e5`: observation vectors hold them): the double it reads
         * as is known, no string_to_double (a copy, the FPU's control word set and reset) */
        char t[3][72];
        int tl[3];
        if (spellings(neg ? -0.0 : 0.0, t, tl) < 0)
            return -1;
        return put_float(ps, t, tl, st, len);
    }
    memcpy(text, st, len);
    text[len] = 0;
    char *stop = NULL;
    double x = PyOS_string_to_double(text, &stop, NULL);
    if (x == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return NOTOK;
    }
    if (stop != text + len || !isfinite(x))
        return NOTOK; /* 1e400: not a finite double, the Python path reports it */
    if (x == 0 && any)
        return NOTOK; /* 1e-400: a value no double holds (it underflows to 0), the same */
    char t[3][72];
    int tl[3];
    if (spellings(x, t, tl) < 0)
        return -1;
    return put_float(ps, t, tl, st, len);
}

/* The end of the integer token at p when it is its own RFC 8785 form (1 to 15 digits, or 16
 * up to 2^53 - 1; not -0, no leading zero, no fraction or exponent) and ends where the
 * enclosing array or object goes on (`,`, `]`, `}`); else NULL. */
static inline const unsigned char *plain_integer_end(const unsigned char *p,
                                                     const unsigned char *e)
{
    int neg = *p == '-';
    const unsigned char *q = p + neg;
    if (q >= e || !is_digit(*q) || (*q == '0' && (neg || (q + 1 < e && is_digit(q[1])))))
        return NULL;
    const unsigned char *d = q;
    q = digit_run(q, e); /* (no branch per digit: small counts mispredicted their loop's end) */
    if (q >= e || (*q != ',' && *q != ']' && *q != '}') ||
        (q - d > 15 && !safe_16(d, (size_t)(q - d))))
        return NULL;
    return q;
}

/* Such a token copied as it stands, as parse_number would write it, without its calls, and 1;
 * else 0 with nothing read or written (parse_value decides). Why: small integers are most
 * values of parse trees, counters and boxes (`deeparrays`, `detections`, `numbers`; issue 15),
 * and an integer before `]` or `}` took the whole number path. */
static inline int plain_integer(P *ps)
{
    const unsigned char *p = ps->p, *q = plain_integer_end(p, ps->end);
    if (q == NULL)
        return 0;
    if (put_token(&ps->out, p, ps->end, (size_t)(q - p)) < 0)
        return -1;
    ps->p = q;
    return 1;
}

/* ---- member order ----------------------------------------------------------------------- */

static inline const unsigned char *key_ptr(const P *ps, const Mem *m)
{
    return m->in_arena ? (const unsigned char *)ps->arena.p + m->key_off : ps->s + m->key_off;
}

static inline int cmp_cp(const unsigned char *a, size_t al, const unsigned char *b, size_t bl)
{
    int c = memcmp(a, b, al < bl ? al : bl);
    if (c)
        return c;
    return (al > bl) - (al < bl);
}

/* UTF-16 code unit order (RFC 8785 3.2.3); the names are valid UTF-8. */
static int cmp_u16(const unsigned char *a, size_t al, const unsigned char *b, size_t bl)
{
    const unsigned char *ae = a + al, *be = b + bl;
    while (a < ae && b < be) {
        uint32_t ca = 0, cb = 0;
        int na = utf8_seq(a, ae, &ca), nb = utf8_seq(b, be, &cb);
        if (ca != cb) {
            uint32_t ua = ca < 0x10000 ? ca : 0xD800 + ((ca - 0x10000) >> 10);
            uint32_t ub = cb < 0x10000 ? cb : 0xD800 + ((cb - 0x10000) >> 10);
            if (ua == ub) {
                ua = 0xDC00 + ((ca - 0x10000) & 0x3FF);
                ub = 0xDC00 + ((cb - 0x10000) & 0x3FF);
            }
            return ua < ub ? -1 : 1;
        }
        a += na;
        b += nb;
    }
    return (a < ae) - (b < be);
}

/* Code point order (u16 = 0) or UTF-16 order (u16 = 1) of two member names. Prefixes that
 * differ decide code point order: where one name has ended its padding byte is 0, below or
 * equal to the other's byte, and a name ending first sorts first. */
static inline int mem_cmp(const P *ps, const Mem *x, const Mem *y, int u16)
{
    if (x->prefix != y->prefix) {
        if (u16) {
            /* UTF-16 order is byte order but where, at the first byte that differs, one name
             * has a character outside the BMP (lead byte 0xF0-0xF4: a surrogate, 0xD800-0xDBFF)
             * and the other one in U+E000-U+FFFF (lead byte 0xEE-0xEF): the first sorts
             * first. A differing continuation byte shares its lead byte, hence its range. So
             * names outside the BMP (emoji keys) need no character-by-character decoding. */
            int sh = 56 - (__builtin_clzll(x->prefix ^ y->prefix) & ~7);
            unsigned a = (unsigned)(x->prefix >> sh) & 0xff, b = (unsigned)(y->prefix >> sh) & 0xff;
            if (a >= 0xF0 && (b == 0xEE || b == 0xEF))
                return -1;
            if (b >= 0xF0 && (a == 0xEE || a == 0xEF))
                return 1;
        }
        return x->prefix < y->prefix ? -1 : 1;
    }
    const unsigned char *a = key_ptr(ps, x), *b = key_ptr(ps, y);
    return u16 ? cmp_u16(a, x->key_len, b, y->key_len) : cmp_cp(a, x->key_len, b, y->key_len);
}

static inline uint64_t name_prefix(const unsigned char *k, size_t n, const unsigned char *limit)
{
    if (n >= 8) {
        uint64_t v;
        memcpy(&v, k, 8);
        return __builtin_bswap64(v); /* big-endian: integer order is byte order */
    }
    if (limit - k >= 8) { /* a short name with 8 bytes readable: one load, the rest masked */
        uint64_t v;
        memcpy(&v, k, 8);
        return n ? __builtin_bswap64(v) & (~0ull << (8 * (8 - n))) : 0;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < 8; i++)
        v = v << 8 | (i < n ? k[i] : 0);
    return v;
}

/* Sort members [lo, hi) into RFC 8785 order (a stable merge through `scratch`). */
static void sort_mems(const P *ps, Mem *m, size_t n, Mem *scratch, int u16)
{
    if (n < 12) {
        for (size_t i = 1; i < n; i++) {
            Mem v = m[i];
            size_t j = i;
            while (j > 0 && mem_cmp(ps, &m[j - 1], &v, u16) > 0) {
                m[j] = m[j - 1];
                j--;
            }
            m[j] = v;
        }
        return;
    }
    size_t h = n / 2;
    sort_mems(ps, m, h, scratch, u16);
    sort_mems(ps, m + h, n - h, scratch, u16);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        scratch[k++] = mem_cmp(ps, &m[j], &m[i], u16) < 0 ? m[j++] : m[i++];
    while (i < h)
        scratch[k++] = m[i++];
    while (j < n)
        scratch[k++] = m[j++];
    memcpy(m, scratch, n * sizeof(Mem));
}

/* Each member's place in code point order by its prefix alone (rank[i]: how many prefixes are
 * below member i's), and 1, when the n prefixes are distinct; else 0 (sort_mems decides). Why:
 * n^2 comparisons with no branch on their outcome cost less than an insertion sort of a few
 * random names, which mispredicts about one comparison in two (sort_mems was ~10 % of the
 * C summary on game states, issue 15). Code point order only: no name outside the BMP. */
#define RANK_MAX 16
_Static_assert(RANK_MAX <= 16, "P's flat_pre and flat_at hold RANK_MAX members");
#define RANK_WIDE 7 /* members from which the AVX2 ranks cost less than the scalar ones (at 5: +0.2 % on
                     * `nullsparse`, its objects of 5-6 members) */

#if defined(__SSE2__)
/* The ranks of prefix_ranks from the n (RANK_WIDE to RANK_MAX) keys pre[], four compares in
 * one AVX2 instruction (64-bit, signed: the keys' top bit flipped), the counts popcounts of
 * their masks: ~5 instructions a member for the ~3n of the scalar loops. Why: objects of 6-9
 * members in random order (QA s35's `keymap`) spent ~3 % of the C summary in those loops'
 * n^2 compares (issue 15). */
__attribute__((target("avx2,popcnt"))) static int ranks_avx2(const uint64_t *pre, size_t n,
                                                             unsigned char *rank)
{
    uint64_t k[RANK_MAX];
    const uint64_t top = 1ull << 63;
    for (size_t i = 0; i < RANK_MAX; i++)
        k[i] = (i < n ? pre[i] : ~0ull) ^ top; /* the padding: below no key */
    __m256i g[RANK_MAX / 4];
    const size_t groups = (n + 3) / 4;
    for (size_t j = 0; j < RANK_MAX / 4; j++)
        g[j] = _mm256_loadu_si256((const __m256i *)(k + 4 * j));
    uint32_t seen = 0;
    for (size_t i = 0; i < n; i++) {
        const __m256i b = _mm256_set1_epi64x((long long)k[i]);
        unsigned r = 0;
        for (size_t j = 0; j < groups; j++)
            r += (unsigned)__builtin_popcount((unsigned)_mm256_movemask_pd(
                _mm256_castsi256_pd(_mm256_cmpgt_epi64(b, g[j]))));
        rank[i] = (unsigned char)r;
        seen |= 1u << r;
    }
    return seen == (1u << n) - 1;
}
#endif

static inline int prefix_ranks(const Mem *m, size_t n, unsigned char *rank)
{
#if defined(__SSE2__)
    if (n >= RANK_WIDE && have_avx2) {
        uint64_t pre[RANK_MAX];
        for (size_t i = 0; i < n; i++)
            pre[i] = m[i].prefix;
        return ranks_avx2(pre, n, rank);
    }
#endif
    uint32_t seen = 0; /* the ranks given: all n distinct only if the prefixes are (equal
                        * prefixes share a rank), a count of ties per pair spared */
    for (size_t i = 0; i < n; i++) {
        uint64_t p = m[i].prefix;
        unsigned r = 0;
        for (size_t j = 0; j < n; j++)
            r += m[j].prefix < p;
        rank[i] = (unsigned char)r;
        seen |= 1u << r;
    }
    return seen == (1u << n) - 1;
}

/* A name prefix whose integer order is RFC 8785's UTF-16 order: the lead bytes 0xEE and 0xEF
 * (U+E000-U+FFFF, after the surrogates in UTF-16) become 0xF5 and 0xF6, above 0xF0-0xF4 (the
 * characters outside the BMP). Continuation bytes are 0x80-0xBF, so every byte is mapped
 * alike; two valid names' first difference is at a character boundary in both, or inside two
 * characters of one lead byte, where both orders agree. 0xF5 and 0xF6 never occur in UTF-8:
 * distinct prefixes stay distinct. */
static inline uint64_t u16_prefix(uint64_t p)
{
    const uint64_t lo7 = 0x7f7f7f7f7f7f7f7full;
    uint64_t y = (p & 0xfefefefefefefefeull) ^ 0xeeeeeeeeeeeeeeeeull; /* 0 at 0xEE, 0xEF */
    uint64_t zero = ~(((y & lo7) + lo7) | y | lo7);                    /* exact: 0x80 there */
    return p + (zero >> 7) * 7;
}

/* prefix_ranks in UTF-16 order (names outside the BMP among them): see u16_prefix. Why:
 * maps keyed by emoji and halfwidth names (QA s35's `keymap`) went through sort_mems' merge
 * and its compares, ~900 instructions an object of 6-9 members (session 36, issue 15). */
static inline int prefix_ranks_u16(const Mem *m, size_t n, unsigned char *rank)
{
    uint64_t pre[RANK_MAX];
    uint32_t seen = 0;
    for (size_t i = 0; i < n; i++)
        pre[i] = u16_prefix(m[i].prefix);
#if defined(__SSE2__)
    if (n >= RANK_WIDE && have_avx2)
        return ranks_avx2(pre, n, rank);
#endif
    for (size_t i = 0; i < n; i++) {
        unsigned r = 0;
        for (size_t j = 0; j < n; j++)
            r += pre[j] < pre[i];
        rank[i] = (unsigned char)r;
        seen |= 1u << r;
    }
    return seen == (1u << n) - 1;
}

/* ---- objects and arrays ----------------------------------------------------------------- */

enum { ROLE_VALUE, ROLE_TOP, ROLE_PAYLOAD };

static inline uint64_t load8(const void *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* a == b for n bytes; short names compare as two overlapping 8-byte words, without a call */
static inline int same_bytes(const void *a, const void *b, size_t n)
{
    if (n >= 8 && n <= 16)
        return load8(a) == load8(b) &&
               load8((const char *)a + n - 8) == load8((const char *)b + n - 8);
    return memcmp(a, b, n) == 0;
}

/* The envelope members in RFC 8785 order: hash, payload, prev_hash, producer,
 * producer_sequence, run_id, schema, trust_level, type, wall_time. */
static const int FIELD_RANK[F_COUNT] = {
    [F_HASH] = 0, [F_PAYLOAD] = 1, [F_PREV] = 2, [F_PRODUCER] = 3, [F_SEQ] = 4, [F_RUN] = 5,
    [F_SCHEMA] = 6, [F_TRUST] = 7, [F_TYPE] = 8, [F_WALL] = 9};

static int field_of(const unsigned char *k, size_t n)
{
    int f;
    switch (n) { /* the envelope names differ in length or first letter */
    case 4: f = k[0] == 't' ? F_TYPE : F_HASH; break;
    case 6: f = k[0] == 's' ? F_SCHEMA : F_RUN; break;
    case 7: f = F_PAYLOAD; break;
    case 8: f = F_PRODUCER; break;
    case 9: f = k[0] == 'w' ? F_WALL : F_PREV; break;
    case 11: f = F_TRUST; break;
    case 17: f = F_SEQ; break;
    default: return -1;
    }
    return same_bytes(FIELD_NAMES[f], k, n) ? f : -1;
}

/* Whether two members (sorted, so neighbours when equal) have the same name: the prefixes
 * and lengths first, the bytes only when they agree (no memcmp call per member pair). */
static inline int same_name(const P *ps, const Mem *x, const Mem *y)
{
    if (x->prefix != y->prefix || x->key_len != y->key_len)
        return 0;
    return x->key_len <= 8 || same_bytes(key_ptr(ps, x), key_ptr(ps, y), x->key_len);
}

/* n bytes from src to dst (not overlapping), 16 a step: up to 15 bytes past n are read from
 * src and written to dst, so both must have that room. No call, no dispatch on n. */
static inline void copy16(char *dst, const char *src, size_t n)
{
#if defined(__SSE2__)
    for (size_t i = 0; i < n; i += 16)
        _mm_storeu_si128((__m128i *)(dst + i), _mm_loadu_si128((const __m128i *)(src + i)));
#else
    memcpy(dst, src, n);
#endif
}

/* A small object's body (at most SMALL_BODY bytes) put in the order of `mem`: past the
 * members already in place, the body copied once to tmp, then each member copied back in
 * order with copy16 (what a copy writes
 * past its member is written over by the next member, past the last one by the `}`). Why:
 * detections, sensor samples and game-state levels are objects of 2-6 short members nearly
 * all out of place: reorder's pass for what may stay, its memmove of the longest and its
 * copies of every length cost more than the members' bytes (issue 15). */
#define SMALL_BODY 256
static int reorder_small(P *ps, const Mem *mem, size_t n, size_t body)
{
    size_t at = body, i = 0;
    for (; i < n && mem[i].start == at; i++) /* a prefix already in order stays */
        at += mem[i].end - mem[i].start + 1;
    if (i == n)
        return 0;
    size_t from = at, blen = ps->out.len - from;
    Buf *tmp = &ps->tmp;
    tmp->len = 0;
    if (buf_grow(tmp, blen + 16) < 0 || buf_grow(&ps->out, 16) < 0)
        return -1;
    char *o = ps->out.p, *t = tmp->p;
    copy16(t, o + from, blen);
    for (; i < n; i++) {
        size_t len = mem[i].end - mem[i].start;
        copy16(o + at, t + (mem[i].start - from), len);
        at += len;
        o[at++] = ','; /* after the last member: where the body ends, the `}` goes */
    }
    return 0;
}

/* Put the members of an object's body (written from `body` in the order read, `,` between)
 * in the order of `mem` (sorted), in place. Why in place: a body was copied whole to a buffer
 * and back at every unsorted level, and tool calls nest small unsorted objects three deep
 * around their long strings, so each byte of a tool's output was copied four times more
 * (toolcall shape, issue 15). Now a member already where the order puts it stays (a sorted
 * prefix or suffix, or equal lengths swapped around it), the longest member out of place is
 * moved once (memmove), and only the others go through `tmp`. */
static int reorder(P *ps, const Mem *mem, size_t n, size_t body)
{
    size_t at = body, big = n, big_len = 0, saved = 0;
    for (size_t i = 0; i < n; i++) { /* the longest member out of place */
        size_t len = mem[i].end - mem[i].start;
        if (mem[i].start != at && len >= big_len) {
            big = i;
            big_len = len;
        }
        saved += mem[i].start != at ? len : 0;
        at += len + 1;
    }
    if (big == n)
        return 0; /* (no member out of place) */
    saved -= big_len;
    Buf *tmp = &ps->tmp;
    tmp->len = 0;
    if (buf_grow(tmp, saved) < 0)
        return -1;
    char *o = ps->out.p;
    at = body;
    for (size_t i = 0; i < n; i++) { /* the others out of place, to tmp */
        size_t len = mem[i].end - mem[i].start;
        if (mem[i].start != at && i != big) {
            copy_short(tmp->p + tmp->len, o + mem[i].start, len);
            tmp->len += len;
        }
        at += len + 1;
    }
    at = body;
    for (size_t i = 0; i < big; i++)
        at += mem[i].end - mem[i].start + 1;
    memmove(o + at, o + mem[big].start, big_len);
    size_t t = 0;
    at = body;
    for (size_t i = 0; i < n; i++) {
        size_t len = mem[i].end - mem[i].start;
        if (mem[i].start != at && i != big) {
            copy_short(o + at, tmp->p + t, len);
            t += len;
        }
        at += len;
        if (i + 1 < n)
            o[at++] = ',';
    }
    return 0;
}

/* Room for `need` members on the stack (which may move: callers take pointers anew). */
static inline int reserve_mems(P *ps, size_t need)
{
    if (need <= ps->capmem)
        return 0;
    return grow((void **)&ps->mems, &ps->capmem, need, sizeof(Mem), 256);
}

static inline int push_mem(P *ps)
{
    if (reserve_mems(ps, ps->nmem + 1) < 0)
        return -1;
    ps->nmem++;
    return 0;
}

/* A member name of at most 63 plain ASCII bytes (no escape, no control character, no DEL)
 * followed by `:`, at ps->p (its opening quote): its `"name":` written from one to four
 * 16-byte loads, its Mem filled as parse_string and name_prefix would, and 1; else 0 and
 * nothing done (the general path reads it). Why: tool calls and detections are many small
 * objects of short names (`id`, `type`, `role`, `box`): the call into parse_string and its
 * set-up were a tenth of the engine's work there (toolcall, detections shapes; issue 15).
 * Database exports and configs name their members at length (`teacher_forcing_ratio`,
 * `last_checkpoint_path`: 16-31 bytes; QA s27's `nullsparse`), hence the second load; entity
 * tables key their objects by UUIDs (36 bytes; QA s32's `uuidmap`: one name in five went
 * through parse_string, ~150 instructions each against ~40 here), hence the third and fourth. */
#if defined(__SSE2__)
static inline unsigned name_stops(__m128i v)
{
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7f);
    /* signed: bytes >= 0x80 are negative, hence below 0x20 too */
    __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)),
                               _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, del)));
    return (unsigned)_mm_movemask_epi8(hit);
}

/* short_name's `"name":` and Mem for a name of n bytes at k (its first `loads` 16-byte
 * pieces in v), and 1. */
static inline int put_name(P *ps, Mem *m, const unsigned char *k, unsigned n, const __m128i *v,
                           int loads)
{
    Buf *out = &ps->out;
    if (buf_grow(out, 67) < 0) /* (never fails for want of room: a line's worth is there) */
        return 0;
    char *o = out->p + out->len;
    o[0] = '"';
    for (int i = 0; i < loads; i++)
        _mm_storeu_si128((__m128i *)(o + 1 + 16 * i), v[i]);
    o[n + 1] = '"';
    o[n + 2] = ':';
    out->len += n + 3;
    m->key_off = (size_t)(k - ps->s);
    m->key_len = n;
    m->in_arena = 0;
    m->nonbmp = 0;
    m->prefix = n >= 8 ? __builtin_bswap64(load8(k))
                       : n ? __builtin_bswap64(load8(k)) & (~0ull << (8 * (8 - n))) : 0;
    ps->str_escaped = 0;
    ps->str_nonbmp = 0;
    ps->p = k + n + 2;
    return 1;
}

/* short_name past its first 32 bytes (a UUID's 36): kept out of its line, so that the names
 * of up to 31 bytes run the code they ran before (a loop over the four loads there cost
 * `nullsparse` and `numbers` 6 %) */
static __attribute__((noinline)) int long_name(P *ps, Mem *m, __m128i v0, __m128i v1)
{
    const unsigned char *k = ps->p + 1;
    ptrdiff_t room = ps->end - k;
    __m128i v[4] = {v0, v1};
    uint64_t mask = 0;
    int loads = 2;
    while (!mask) { /* 16 bytes more, while the line has them and the `:` after them */
        if (loads == 4 || room < 16 * loads + 18)
            return 0;
        v[loads] = _mm_loadu_si128((const __m128i *)(k + 16 * loads));
        mask = (uint64_t)name_stops(v[loads]) << (16 * loads);
        loads++;
    }
    unsigned n = (unsigned)__builtin_ctzll(mask);
    if (k[n] != '"' || k[n + 1] != ':')
        return 0;
    return put_name(ps, m, k, n, v, loads);
}

/* short_name for a name of at most 31 bytes whose first stop is a byte >= 0x80: non-ASCII
 * text, checked a character at a time (utf8_seq, as parse_string's loop does) to the closing
 * quote; 0 (the general path reads it) at an escape, a control character, DEL, invalid UTF-8
 * or a name of 32 bytes or more. Why: maps keyed by short non-ASCII names (`é`, `ｱｲ`, an emoji:
 * QA s35's `keymap`, 4.56x its floor) sent two names in five through parse_string, ~240
 * instructions each (session 36, issue 15). The room for 32 bytes is short_name's. */
static __attribute__((noinline)) int utf8_name(P *ps, Mem *m)
{
    const unsigned char *k = ps->p + 1, *q = k, *stop = k + 31;
    int nonbmp = 0;
    while (q < stop) {
        unsigned c = *q;
        if (c == '"')
            break;
        if (c < 0x80) {
            if (c == '\\' || c < 0x20 || c == 0x7f)
                return 0;
            q++;
            continue;
        }
        /* utf8_seq's rules, inline (a call was ~40 instructions a character); the bytes
         * read are within the 32 short_name made sure of */
        unsigned c1 = q[1];
        if (c < 0xE0) {
            if (c < 0xC2 || (c1 & 0xC0) != 0x80)
                return 0;
            q += 2;
        } else if (c < 0xF0) {
            if ((c1 & 0xC0) != 0x80 || (q[2] & 0xC0) != 0x80 || (c == 0xE0 && c1 < 0xA0) ||
                (c == 0xED && c1 >= 0xA0))
                return 0; /* (an overlong form, a surrogate) */
            q += 3;
        } else {
            if (c > 0xF4 || (c1 & 0xC0) != 0x80 || (q[2] & 0xC0) != 0x80 ||
                (q[3] & 0xC0) != 0x80 || (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90))
                return 0; /* (an overlong form, beyond U+10FFFF) */
            nonbmp = 1;
            q += 4;
        }
    }
    unsigned n = (unsigned)(q - k);
    if (q >= stop || k[n + 1] != ':')
        return 0;
    __m128i vw[2] = {_mm_loadu_si128((const __m128i *)k),
                     _mm_loadu_si128((const __m128i *)(k + 16))};
    put_name(ps, m, k, n, vw, n >= 16 ? 2 : 1);
    m->nonbmp = (unsigned char)nonbmp;
    ps->str_nonbmp = nonbmp;
    ps->flags &= ~ST_ASCII;
    return 1;
}

#endif

static inline int short_name(P *ps, Mem *m)
{
#if defined(__SSE2__)
    const unsigned char *k = ps->p + 1;
    if (ps->end - k < 34) /* the loads, and the `:` after a 31-byte name */
        return 0;
    __m128i v = _mm_loadu_si128((const __m128i *)k), w = _mm_setzero_si128();
    unsigned mask = name_stops(v);
    if (!mask) {
        w = _mm_loadu_si128((const __m128i *)(k + 16));
        mask = name_stops(w) << 16;
        if (!mask)
            return long_name(ps, m, v, w);
    }
    unsigned n = (unsigned)__builtin_ctz(mask);
    if (k[n] != '"' || k[n + 1] != ':') /* the first stop a byte >= 0x80: non-ASCII text */
        return k[n] >= 0x80 ? utf8_name(ps, m) : 0;
    __m128i vw[2] = {v, w};
    return put_name(ps, m, k, n, vw, n >= 16 ? 2 : 1);
#else
    (void)ps, (void)m;
    return 0;
#endif
}

/* The length of the `true`, `false` or `null` at p (whatever follows it: the caller reads
 * on), else 0. */
static inline unsigned plain_literal(const unsigned char *p, const unsigned char *end)
{
    if (end - p < 5) /* (a line ends with `}`: a literal here is followed by a byte) */
        return 0;
    uint32_t w;
    memcpy(&w, p, 4);
    if (memcmp(&w, "true", 4) == 0 || memcmp(&w, "null", 4) == 0)
        return 4;
    return memcmp(&w, "fals", 4) == 0 && p[4] == 'e' ? 5 : 0;
}

static int flat_object(P *ps, int arrays);
#define FLAT_TRIAL 256 /* objects tried before a hit rate under 1 in 4 stops flat_object */

static int parse_object(P *ps, int depth, int role)
{
    if (depth > MAX_DEPTH || stack_short(ps))
        return NOTOK;
    if (role == ROLE_VALUE && ps->flat_tries < FLAT_TRIAL + 4 * ps->flat_hits) {
        int rc = flat_object(ps, depth < MAX_DEPTH);
        ps->flat_tries++;
        if (rc) {
            ps->flat_hits++;
            return rc < 0 ? -1 : 0;
        }
    }
    Buf *out = &ps->out;
    size_t body = out->len + 1; /* after the `{` */
    PUTC(out, '{');
    ps->p++;
    if (ps->p < ps->end && *ps->p == '}') {
        ps->p++;
        PUTC(out, '}');
        return role == ROLE_TOP ? NOTOK : 0;
    }
    size_t base = ps->nmem;
    int sorted_cp = 1, sorted_u16 = 1, any_nonbmp = 0, any_arena = 0, rc;
    uint64_t seq = 0; /* a hash of the names' prefixes and lengths, in the order read */
    for (;;) {
        int field = -1;
        if (ps->p >= ps->end || *ps->p != '"')
            return NOTOK;
        if (push_mem(ps) < 0)
            return -1;
        Mem *m = &ps->mems[ps->nmem - 1];
        m->start = out->len;
        m->is_hash = 0;
        if (short_name(ps, m)) {
            any_nonbmp |= m->nonbmp; /* (utf8_name's names: an emoji) */
        } else {
            if ((rc = parse_string(ps, m)) != 0)
                return rc;
            /* (an arena name: the arena's room past it is readable, what it holds masked
             * off; the byte loop for a short name last in the arena was ~1 % of the C
             * summary on names spelled by ensure_ascii, QA s37 `sensorjcs`) */
            m->prefix = name_prefix(key_ptr(ps, m), m->key_len,
                                    m->in_arena ? (const unsigned char *)ps->arena.p +
                                                      ps->arena.cap
                                                : ps->end);
            any_nonbmp |= m->nonbmp;
            if (ps->p >= ps->end || *ps->p != ':')
                return NOTOK;
            ps->p++;
            PUTC(out, ':');
        }
        after_sep(ps);
        if (ps->p >= ps->end)
            return NOTOK;
        if (role == ROLE_TOP) {
            field = m->in_arena ? -1 : field_of(key_ptr(ps, m), m->key_len);
            if (field < 0)
                return NOTOK; /* an unknown or escaped envelope member */
            m->rank = FIELD_RANK[field];
            /* envelope names are ASCII: their rank is their order */
            if (ps->nmem - 1 > base && ps->mems[ps->nmem - 2].rank >= m->rank)
                sorted_cp = sorted_u16 = 0;
        } else {
            seq = (seq + m->prefix + m->key_len) * 0x9E3779B97F4A7C15ull;
            any_arena |= m->in_arena;
        }
        int vrole = ROLE_VALUE;
        const unsigned char *vstart = ps->p;
        size_t vout = out->len; /* where the value's canonical form starts */
        if (role == ROLE_TOP) {
            if (field == F_PAYLOAD) {
                if (*ps->p != '{')
                    return NOTOK;
                vrole = ROLE_PAYLOAD;
            } else if (field == F_SEQ) {
                if (*ps->p != '-' && !is_digit(*ps->p))
                    return NOTOK;
            } else if (*ps->p != '"') {
                return NOTOK;
            }
        } else if (role == ROLE_PAYLOAD && m->key_len == 15 &&
                   memcmp(key_ptr(ps, m), "seed_commitment", 15) == 0) {
            ps->flags |= ST_SEED;
        }
        /* a member's plain integer (not the envelope's: its rules are parse_value's), or
         * its `true`, `false` or `null` copied as literal() would (game states, flags) */
        unsigned lit = role != ROLE_TOP ? plain_literal(ps->p, ps->end) : 0;
        if (lit) {
            if (put_token(out, ps->p, ps->end, lit) < 0)
                return -1;
            ps->p += lit;
        } else if (role != ROLE_TOP && (*ps->p == '-' || is_digit(*ps->p)) &&
            (rc = plain_integer(ps)) != 0) {
            if (rc < 0)
                return -1;
        } else if ((rc = parse_value(ps, depth, vrole)) != 0) {
            return rc;
        }
        m = &ps->mems[ps->nmem - 1]; /* the stack may have moved */
        m->end = out->len;
        if (field >= 0) {
            if (ps->seen & (1 << field))
                return NOTOK; /* repeated */
            ps->seen |= 1 << field;
            if (vrole == ROLE_PAYLOAD || field == F_SEQ) {
                if (field == F_SEQ)
                    for (const unsigned char *d = vstart; d < ps->p; d++)
                        if (*d == '.' || *d == 'e' || *d == 'E')
                            return NOTOK; /* a float sequence number */
                ps->f_off[field] = (size_t)(vstart - ps->s);
                ps->f_len[field] = (size_t)(ps->p - vstart);
            } else if (ps->str_escaped) {
                /* an escaped envelope string is the Python path's, but for the schema, which
                 * PHP's json_encode writes `ale-trajectory-event\/v1` on every line (declining
                 * them all sent a whole run line by line through Python, issue 15): its
                 * canonical form, the decoded string as written to `out`, is compared */
                if (field != F_SCHEMA || ps->schema == NULL ||
                    out->len - vout - 2 != ps->schema_len ||
                    memcmp(out->p + vout + 1, ps->schema, ps->schema_len) != 0)
                    return NOTOK; /* (`out` is reordered at the envelope's end: compared now) */
                ps->schema_ok = 1;
                ps->f_off[field] = ps->f_len[field] = 0;
            } else {
                ps->f_off[field] = (size_t)(vstart + 1 - ps->s);
                ps->f_len[field] = (size_t)(ps->p - vstart - 2);
            }
            if (field == F_HASH)
                m->is_hash = 1;
        }
        if (ps->p >= ps->end)
            return NOTOK;
        if (*ps->p == ',') {
            ps->p++;
            PUTC(out, ',');
            after_sep(ps);
            continue;
        }
        if (*ps->p != '}')
            return NOTOK;
        ps->p++;
        break;
    }
    size_t n = ps->nmem - base;
    Mem *mem = ps->mems + base;
    KeyOrder *ko = NULL; /* this sequence's slot among the orders seen */
    int known = 0;       /* the names are those of ko, in the same order */
    if (role != ROLE_TOP && n > 1) {
        if (n <= KO_MAX && !any_arena && ps->ko_tries < KO_TRIAL + 8 * ps->ko_hits) {
            ps->ko_tries++;
            if (ps->ko == NULL)
                ps->ko = PyMem_Calloc(KO_SLOTS, sizeof(KeyOrder)); /* (none: no cache) */
            if (ps->ko != NULL) {
                ko = &ps->ko[seq >> 58];
                known = ko->n == n && ko->h == seq;
                for (size_t i = 0; known && i < n; i++)
                    known = ko->prefix[i] == mem[i].prefix && ko->len[i] == mem[i].key_len &&
                            (mem[i].key_len <= 8 ||
                             same_bytes(ko->name[i], ps->s + mem[i].key_off, mem[i].key_len));
                ps->ko_hits += (unsigned)known;
            }
        }
        if (known) {
            sorted_cp = ko->sorted_cp;
            sorted_u16 = ko->sorted_u16;
        } else {
            /* Neighbours whose prefixes differ are in the order of their prefixes (see
             * mem_cmp): one pass with no branch per pair, where random names mispredicted
             * the comparison's branch about one pair in two (game states, issue 15). Equal
             * prefixes (long names alike in their first 8 bytes, a repeated name) and names
             * outside the BMP take mem_cmp. */
            uint64_t lt = 1, eq = 0;
            for (size_t i = 1; i < n; i++) {
                lt &= mem[i - 1].prefix < mem[i].prefix;
                eq |= mem[i - 1].prefix == mem[i].prefix;
            }
            if (!eq && !any_nonbmp) {
                sorted_cp &= (int)lt;
                sorted_u16 &= (int)lt;
            } else {
                for (size_t i = 1; i < n; i++) {
                    int c = mem_cmp(ps, &mem[i - 1], &mem[i], 0);
                    sorted_cp &= c < 0;
                    if (mem[i - 1].nonbmp || mem[i].nonbmp)
                        c = mem_cmp(ps, &mem[i - 1], &mem[i], 1);
                    sorted_u16 &= c < 0;
                }
            }
            if (ko != NULL) { /* remembered; the order, once sorted and found unrepeated */
                ko->n = 0;
                ko->h = seq;
                ko->sorted_cp = (unsigned char)sorted_cp;
                ko->sorted_u16 = (unsigned char)sorted_u16;
                for (size_t i = 0; i < n; i++) {
                    ko->name[i] = ps->s + mem[i].key_off;
                    ko->prefix[i] = mem[i].prefix;
                    ko->len[i] = mem[i].key_len;
                    ko->perm[i] = (unsigned char)i;
                    mem[i].rank = (int)i; /* where it was read, through the sort */
                }
                if (sorted_u16)
                    ko->n = (unsigned char)n;
            }
        }
    }
    if (!sorted_cp)
        ps->flags &= ~ST_SORTED_CP;
    if (!sorted_u16)
        ps->flags &= ~ST_SORTED_U16;
    if (sorted_u16 && role != ROLE_TOP) { /* strictly increasing: canonical as written */
        PUTC(out, '}');
        ps->nmem = base;
        return 0;
    }
    if (role == ROLE_TOP) {
        /* the envelope: distinct known names (an unknown or repeated one declined the line),
         * whose rank is their place: each is written at its rank, without a sort. The
         * insertion sort of the 48-byte members it replaces moved ~30 of them a line (the
         * envelope's usual order is far from RFC 8785's): about a sixth of parse_object. */
        int at[F_COUNT];
        for (int r = 0; r < F_COUNT; r++)
            at[r] = -1;
        for (size_t i = 0; i < n; i++)
            at[mem[i].rank] = (int)i;
        Buf *tmp = &ps->tmp;
        tmp->len = 0;
        PUT(tmp, out->p, body);
        int first = 1;
        for (int r = 0; r < F_COUNT; r++) {
            if (at[r] < 0 || mem[at[r]].is_hash)
                continue;
            if (!first)
                PUTC(tmp, ',');
            first = 0;
            const Mem *m = &mem[at[r]];
            PUT(tmp, out->p + m->start, m->end - m->start);
        }
        PUTC(tmp, '}');
        Buf swap = *out;
        *out = *tmp;
        *tmp = swap;
        ps->nmem = base;
        return 0;
    }
    if (!sorted_u16) {
        unsigned char rank[RANK_MAX];
        /* scratch space for the merge: past the members on the stack */
        if (reserve_mems(ps, ps->nmem + n) < 0)
            return -1;
        mem = ps->mems + base;
        if (known) { /* the order seen before: no comparison, no repeated name */
            Mem *sorted = ps->mems + ps->nmem;
            for (size_t i = 0; i < n; i++)
                sorted[i] = mem[ko->perm[i]];
            mem = sorted;
        } else if (n <= RANK_MAX && (any_nonbmp ? prefix_ranks_u16(mem, n, rank)
                                                : prefix_ranks(mem, n, rank))) {
            /* distinct prefixes: each member goes to its rank, no repeated name */
            Mem *sorted = ps->mems + ps->nmem;
            for (size_t i = 0; i < n; i++)
                sorted[rank[i]] = mem[i];
            if (ko != NULL) {
                for (size_t i = 0; i < n; i++)
                    ko->perm[rank[i]] = (unsigned char)i;
                ko->n = (unsigned char)n;
            }
            mem = sorted;
        } else {
            sort_mems(ps, mem, n, ps->mems + ps->nmem, any_nonbmp);
            for (size_t i = 1; i < n; i++)
                if (same_name(ps, &mem[i - 1], &mem[i]))
                    return NOTOK; /* a repeated member: the Python path names it */
            if (ko != NULL) {
                for (size_t i = 0; i < n; i++)
                    ko->perm[i] = (unsigned char)mem[i].rank;
                ko->n = (unsigned char)n;
            }
        }
    }
    if ((out->len - body <= SMALL_BODY ? reorder_small(ps, mem, n, body)
                                       : reorder(ps, mem, n, body)) < 0)
        return -1;
    PUTC(out, '}');
    ps->nmem = base;
    return 0;
}

/* The end of the array at p (past its `]`) when it is canonical as written and holds only
 * what adds no fact to the line: arrays, strings of printable ASCII without an escape, the
 * integers plain_integer copies, `true`, `false`, `null`, bare `,` (*comma set when one is
 * seen), nested at most to MAX_DEPTH; else NULL (*stop: where it stopped), and parse_array
 * parses it as before. Why: parse trees and token lists nest arrays ~15 deep of short
 * strings and small integers (`deeparrays`, issue 15); a call, a dispatch and a store a value
 * were ~80 % of the C summary there, against one pass over the bytes here and one copy. */
static const unsigned char *plain_array(const unsigned char *p, const unsigned char *end,
                                        int depth, int *comma, const unsigned char **stop,
                                        const unsigned char *lim)
{
    int d = 0; /* levels open inside the array at p */
    p++;
    if (p < end && *p == ']')
        return p + 1;
    for (;;) {
        if (p >= end)
            goto fail;
        if (p > lim) { /* further: not decided here (NULL, *stop NULL) */
            *stop = NULL;
            return NULL;
        }
        unsigned c = *p;
        if (c == '[') {
            if (depth + d + 1 > MAX_DEPTH)
                goto fail;
            d++;
            p++;
            if (p < end && *p == ']') {
                p++;
                d--;
            } else {
                continue; /* a value is next */
            }
        } else if (c == '"') {
            p = plain_run(p + 1, end);
            if (p >= end || *p != '"')
                goto fail; /* an escape, a control or non-ASCII character: parse_string */
            p++;
        } else if (c == '-' || is_digit(c)) {
            const unsigned char *q = plain_integer_end(p, end); /* (a `}` after it: below) */
            if (q == NULL)
                goto fail;
            p = q;
        } else if (c == 't' && end - p >= 4 && memcmp(p, "true", 4) == 0) {
            p += 4;
        } else if (c == 'f' && end - p >= 5 && memcmp(p, "false", 5) == 0) {
            p += 5;
        } else if (c == 'n' && end - p >= 4 && memcmp(p, "null", 4) == 0) {
            p += 4;
        } else {
            goto fail;
        }
        /* after a value: `,` and the next, or `]` (and after it, what follows its array) */
        for (;;) {
            if (p >= end)
                goto fail;
            if (*p == ',') {
                *comma = 1;
                p++;
                break;
            }
            if (*p != ']')
                goto fail;
            p++;
            if (d == 0)
                return p;
            d--;
        }
    }
fail:
    *stop = p;
    return NULL;
}

#define PLAIN_SHORT 24 /* bytes plain_array reads before it hands over to plain_array64 */

#if defined(__SSE2__)
/* What 4 bytes' brackets do to the depth: indexed by their `[` bits | their `]` bits << 4,
 * the change, and the lowest and highest it reaches after each byte (set when the module
 * loads; an index with a byte both `[` and `]` is never read). */
static struct {
    int8_t delta, lo, hi;
} BRACKETS4[256];

static void init_brackets4(void)
{
    for (int i = 0; i < 256; i++) {
        int d = 0, lo = 0, hi = 0;
        for (int j = 0; j < 4; j++) {
            d += (i >> j & 1) - (i >> (j + 4) & 1);
            lo = d < lo ? d : lo;
            hi = d > hi ? d : hi;
        }
        BRACKETS4[i].delta = (int8_t)d;
        BRACKETS4[i].lo = (int8_t)lo;
        BRACKETS4[i].hi = (int8_t)hi;
    }
}

/* The bit mask (bit i: byte i) of the 64 bytes' 16-byte compares in r[0..3]. */
static inline uint64_t mask64(const __m128i r[4])
{
    return (uint64_t)(unsigned)_mm_movemask_epi8(r[0]) |
           (uint64_t)(unsigned)_mm_movemask_epi8(r[1]) << 16 |
           (uint64_t)(unsigned)_mm_movemask_epi8(r[2]) << 32 |
           (uint64_t)(unsigned)_mm_movemask_epi8(r[3]) << 48;
}

static inline uint64_t eq64(const __m128i v[4], char c)
{
    const __m128i k = _mm_set1_epi8(c);
    __m128i r[4];
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++)
        r[j] = _mm_cmpeq_epi8(v[j], k);
    return mask64(r);
}

/* bytes from lo to hi (unsigned) */
static inline uint64_t range64(const __m128i v[4], unsigned char lo, unsigned char hi)
{
    const __m128i l = _mm_set1_epi8((char)lo), h = _mm_set1_epi8((char)hi);
    __m128i r[4];
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++)
        r[j] = _mm_and_si128(_mm_cmpeq_epi8(_mm_max_epu8(v[j], l), v[j]),
                             _mm_cmpeq_epi8(_mm_min_epu8(v[j], h), v[j]));
    return mask64(r);
}

/* x with bit i the XOR of bits 0..i (inside a string: from its opening quote on) */
static inline uint64_t prefix_xor(uint64_t x)
{
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

/* A flat object of at most 64 bytes at ps->p (its `{`): members of printable ASCII names (no
 * escape) with a value each that is `true`, `false`, `null`, an integer plain_integer would
 * copy (at most 15 digits), a string of printable ASCII without an escape, or (`arrays`: the
 * object is not at the deepest level) an array of such integers that short_int_array takes
 * (a position, a box: `uuidmap`'s entities, QA s32 T8; such an object went the general
 * path's ~5 calls a member), no whitespace, at
 * most RANK_MAX members whose names' 8-byte prefixes are distinct. Written in RFC 8785 order
 * (each member copied whole from the line to its rank) with the flags the general path would
 * set, and 1; else 0, nothing read, written or flagged (the general path parses it); -1:
 * MemoryError. Why: game states, sensor samples and boxes are trees of such objects (2-5
 * members of 1-2 letter names and small values, ~7 bytes a member); on them the general path
 * waits, member after member, on where the name ends (a 16-byte compare, a mask, its first
 * bit, then the value's load), ~60 % of the C summary on `gamestate` (issue 15). Here the
 * window's quotes, separators and forbidden bytes are found once, and each member's bounds
 * are a bit scan of those masks. */
#define FLAT_WIN 64
static inline const unsigned char *short_int_array(const unsigned char *p, int *comma);
static int flat_object(P *ps, int arrays)
{
    const unsigned char *p = ps->p;
    if (ps->end - p < FLAT_WIN + 16) /* (copy16 reads up to 15 bytes past a member) */
        return 0;
    __m128i v[4];
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++)
        v[j] = _mm_loadu_si128((const __m128i *)(p + 16 * j));
    uint64_t R = eq64(v, '}');
    if (!R)
        return 0;
    unsigned e = (unsigned)__builtin_ctzll(R); /* the first `}`: the object's end, if flat */
    uint64_t span = (2ull << e) - 1;           /* bytes 0..e (all 64 when e is 63) */
    /* whitespace, control characters, bytes >= 0x80 (signed: below 0x21), DEL, a backslash,
     * a nested object or array: the general path's */
    const __m128i sp = _mm_set1_epi8(0x21), del = _mm_set1_epi8(0x7f), bs = _mm_set1_epi8('\\'),
                  ob = _mm_set1_epi8('{'), sb = _mm_set1_epi8(arrays ? '{' : '[');
    __m128i r[4];
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++)
        r[j] = _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(v[j], sp), _mm_cmpeq_epi8(v[j], del)),
                            _mm_or_si128(_mm_cmpeq_epi8(v[j], bs),
                                         _mm_or_si128(_mm_cmpeq_epi8(v[j], ob),
                                                      _mm_cmpeq_epi8(v[j], sb))));
    if (mask64(r) & span & ~1ull)
        return 0;
    uint64_t Q = eq64(v, '"') & span, C = eq64(v, ':'), MR = eq64(v, ',') | R;
    uint64_t D = range64(v, '0', '9');
    unsigned st[RANK_MAX], en[RANK_MAX];
    uint64_t pre[RANK_MAX];
    unsigned n = 0, pos = 1;
    for (;;) {
        if (n == RANK_MAX || !(Q >> pos & 1))
            return 0;
        uint64_t q = Q & ~((2ull << pos) - 1); /* quotes after the name's opening one */
        if (!q)
            return 0;
        unsigned ne = (unsigned)__builtin_ctzll(q); /* its closing quote, before e */
        if (!(C >> (ne + 1) & 1))
            return 0;
        unsigned vs = ne + 2; /* <= e: byte e is a `}`, not the `:` */
        /* The value's kind and form decided with no branch on them (random values mispredict
         * one, ~15 cycles a member); the loads below are off the chain of bounds. */
        uint64_t w = load8(p + vs); /* (vs + 8 <= 72: within the window's 80 bytes) */
        unsigned c0 = (unsigned)(w & 0xff);
        /* a string: to its closing quote, followed by `,` or `}` */
        uint64_t qq = Q & ~((2ull << vs) - 1);
        unsigned ve_s = (unsigned)__builtin_ctzll(qq | 1ull << 62) + 1;
        unsigned str_ok = (qq != 0) & (unsigned)(MR >> ve_s & 1);
        /* else to the next `,` or `}` (bit e at least) */
        unsigned ve_o = (unsigned)__builtin_ctzll(MR & ~((1ull << vs) - 1));
        unsigned vl = ve_o - vs;
        unsigned neg = c0 == '-', nd = vl - neg;
        unsigned lead = (unsigned)(w >> (8 * neg) & 0xff);
        unsigned int_ok = (nd - 1 < 15) &
                          (((~D >> (vs + neg)) & ((1ull << (nd & 63)) - 1)) == 0) &
                          !(lead == '0' && (nd > 1 || neg));
        uint32_t w4 = (uint32_t)w;
        unsigned lit_ok = ((vl == 4) & ((w4 == 0x65757274u) | (w4 == 0x6c6c756eu))) | /* true null */
                          ((vl == 5) & ((w & 0xffffffffffull) == 0x65736c6166ull));   /* false */
        unsigned other_ok = int_ok | lit_ok; /* (neither holds a quote) */
        unsigned is_str = c0 == '"';
        unsigned ve = is_str ? ve_s : ve_o;
        if (c0 == '[') {
            /* a short array of integers, as parse_array's first test copies it whole (its
             * 16 bytes are in the window's 80); nothing else nests here */
            int comma;
            const unsigned char *ae = short_int_array(p + vs, &comma);
            if (ae == NULL)
                return 0;
            ve = (unsigned)(ae - p);
            if (ve > e || !(MR >> ve & 1))
                return 0;
        } else if (!(is_str ? str_ok : other_ok)) {
            return 0;
        }
        st[n] = pos;
        en[n] = ve;
        pre[n] = name_prefix(p + pos + 1, ne - pos - 1, ps->end);
        n++;
        if (ve == e)
            break;
        pos = ve + 1;
    }
    /* The members' canonical order from their names' prefixes. The last object's ranking is
     * kept: the same prefixes in the same order rank the same (a table of entities under
     * new UUID names, each value the same four members out of order: the n^2 compares and
     * the inverse were ~7 % of the C summary on QA s32's `uuidmap`; session 35, issue 15) */
    unsigned char *at_rank = ps->flat_at;
    unsigned inorder;
    unsigned same = n == ps->flat_n;
    for (unsigned i = 0; same && i < n; i++)
        same = pre[i] == ps->flat_pre[i];
    if (same) {
        inorder = ps->flat_inorder;
    } else {
        unsigned char rank[RANK_MAX];
        unsigned seen = 0; /* (distinct ranks: distinct prefixes, see prefix_ranks) */
        inorder = 1;
        for (unsigned i = 0; i < n; i++) {
            unsigned rk = 0;
            for (unsigned j = 0; j < n; j++)
                rk += pre[j] < pre[i];
            rank[i] = (unsigned char)rk;
            seen |= 1u << rk;
            inorder &= rk == i;
        }
        if (seen != (1u << n) - 1)
            return 0; /* names alike in 8 bytes, or repeated: the general path compares them */
        for (unsigned i = 0; i < n; i++) {
            at_rank[rank[i]] = (unsigned char)i;
            ps->flat_pre[i] = pre[i];
        }
        ps->flat_n = n;
        ps->flat_inorder = inorder;
    }
    Buf *out = &ps->out;
    if (buf_grow(out, e + 1 + 16) < 0)
        return -1;
    char *o = out->p + out->len;
    if (inorder) {
        copy16(o, (const char *)p, e + 1);
    } else {
        ps->flags &= ~(ST_SORTED_CP | ST_SORTED_U16);
        unsigned at = 1;
        o[0] = '{';
        for (unsigned k = 0; k < n; k++) {
            unsigned i = at_rank[k], len = en[i] - st[i];
            copy16(o + at, (const char *)p + st[i], len);
            at += len;
            o[at++] = ',';
        }
        o[e] = '}'; /* (over the last `,`: the same length as the line's object) */
    }
    out->len += e + 1;
    ps->p = p + e + 1;
    ps->sep_bare = 1; /* a `:` followed by no space */
    ps->str_escaped = 0;
    ps->str_nonbmp = 0;
    return 1;
}

/* Where each of `true`, `false`, `null` starts in the 64 bytes at b (68 readable: a word
 * that starts in the window may end past it): `*tn` for `true` and `null` (4 letters),
 * `*f` for `false` (5). Byte compares of the window and of its copies 1-4 bytes on, ANDed:
 * one pass, whatever the number of literals (session 23 compared each literal's spelling
 * on its own, a memcmp and a data-dependent branch each: a quarter of the C summary on
 * `boolgrid`, arrays of the three literals; QA s23 Q4). */
static inline void literal_starts(const unsigned char *b, uint64_t *tn, uint64_t *f)
{
    __m128i rt[4], rf[4];
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++) {
        const unsigned char *c = b + 16 * j;
        const __m128i v0 = _mm_loadu_si128((const __m128i *)c),
                      v1 = _mm_loadu_si128((const __m128i *)(c + 1)),
                      v2 = _mm_loadu_si128((const __m128i *)(c + 2)),
                      v3 = _mm_loadu_si128((const __m128i *)(c + 3)),
                      v4 = _mm_loadu_si128((const __m128i *)(c + 4));
#define EQ(v, ch) _mm_cmpeq_epi8((v), _mm_set1_epi8(ch))
        const __m128i t = _mm_and_si128(_mm_and_si128(EQ(v0, 't'), EQ(v1, 'r')),
                                        _mm_and_si128(EQ(v2, 'u'), EQ(v3, 'e')));
        const __m128i n = _mm_and_si128(_mm_and_si128(EQ(v0, 'n'), EQ(v1, 'u')),
                                        _mm_and_si128(EQ(v2, 'l'), EQ(v3, 'l')));
        rt[j] = _mm_or_si128(t, n);
        rf[j] = _mm_and_si128(_mm_and_si128(_mm_and_si128(EQ(v0, 'f'), EQ(v1, 'a')),
                                            _mm_and_si128(EQ(v2, 'l'), EQ(v3, 's'))),
                              EQ(v4, 'e'));
#undef EQ
    }
    *tn = mask64(rt);
    *f = mask64(rf);
}

/* plain_array's answer (the same arrays accepted, the same end), 64 bytes at a time: each
 * byte's class as a bit mask (quotes, what lies in a string, `[`, `]`, `,`, digits, `-`,
 * letters) and the grammar as rules between a byte's class and the next one's, so that no
 * branch depends on which token comes next (in a parse tree that is random, and its
 * mispredictions were most of plain_array's time). The literals are matched as masks too
 * (literal_starts): a run of letters is one of the three words and ends with it. What the
 * masks do not say is looked at alone: the brackets one by one, only in a window where the
 * array may end or go too deep. A
 * few arrays plain_array copies are left to parse_array here (a 16-digit integer, one at the
 * block's end in a 64-byte window that runs past it): never a different result. */
static inline __attribute__((always_inline)) const unsigned char *
plain_array64_at(const unsigned char *p, const unsigned char *end, int depth, int *comma,
                 const unsigned char **stop)
{
    unsigned char pad[80];
    uint64_t in = 0;                                         /* in a string at the chunk's start */
    /* bit 63 of the last chunk's masks; the array's own `[` is the byte before the first */
    uint64_t pO = 1ull << 63, pC = 0, pM = 0, pQC = 0, pD = 0, pN = 0, pL = 0, pZs = 0;
    uint64_t pm1 = 0, pm2 = 0, pm4 = 0;                      /* digit runs of 2, 4, 8 */
    uint64_t pW4 = 0, pW5 = 0;                               /* literals of 4 and 5 letters */
    int d = 1; /* levels open, the array's own included: it starts past its `[` */
    const int dmax = MAX_DEPTH - depth + 1;
    p++;
    for (;;) {
        const unsigned char *b = p;
        size_t avail = (size_t)(end - p);
        if (avail < 68) { /* (literal_starts reads 4 bytes past the window) */
            if (avail == 0)
                goto fail;
            memcpy(pad, p, avail);
            memset(pad + avail, 0, sizeof pad - avail); /* a control byte: an error if reached */
            b = pad;
        }
        __m128i v[4], r[4];
    #pragma GCC unroll 4
    for (int j = 0; j < 4; j++)
            v[j] = _mm_loadu_si128((const __m128i *)(b + 16 * j));
        const __m128i space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7f);
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) /* signed: bytes >= 0x80 are negative, below 0x20 too */
            r[j] = _mm_or_si128(_mm_cmplt_epi8(v[j], space), _mm_cmpeq_epi8(v[j], del));
        uint64_t bad = mask64(r) | eq64(v, '\\');
        uint64_t q = eq64(v, '"');
        uint64_t s = prefix_xor(q) ^ in;
        uint64_t qc = q & ~s, out = ~(s | q);
        uint64_t O = eq64(v, '[') & out, C = eq64(v, ']') & out, M = eq64(v, ',') & out;
        uint64_t D = range64(v, '0', '9') & out, N = eq64(v, '-') & out;
        uint64_t L = range64(v, 'a', 'z') & out, Z = eq64(v, '0') & out;
        uint64_t qo = q & s;
        bad |= out & ~(O | C | M | D | N | L);
        /* what may follow each class: its mask moved a byte on, the last chunk's bit 63 in */
#define NEXT(x, px) ((x) << 1 | (px) >> 63)
        uint64_t val = O | qo | D | N | L; /* what may start a value (and `[`) */
        bad |= NEXT(O, pO) & ~(val | C);
        bad |= NEXT(M, pM) & ~val;
        bad |= (NEXT(C, pC) | NEXT(qc, pQC)) & ~(C | M);
        bad |= NEXT(D, pD) & ~(D | C | M);
        bad |= NEXT(L, pL) & ~(L | C | M);
        bad |= NEXT(N, pN) & ~(D & ~Z);        /* -0 is parse_number's */
        uint64_t Zs = Z & ~NEXT(D, pD);        /* a 0 that starts a number */
        bad |= NEXT(Zs, pZs) & D;              /* 01: invalid */
        uint64_t m1 = D & NEXT(D, pD);         /* 16 digits or more: parse_value decides */
        uint64_t m2 = m1 & (m1 << 2 | pm1 >> 62);
        uint64_t m4 = m2 & (m2 << 4 | pm2 >> 60);
        bad |= m4 & (m4 << 8 | pm4 >> 56);
        uint64_t lits = L & ~NEXT(L, pL);      /* where a literal starts */
        uint64_t W4 = 0, W5 = 0;
        if (lits) { /* (a window of numbers or strings only: not matched) */
            literal_starts(b, &W4, &W5);
            W4 &= lits, W5 &= lits;
            bad |= lits & ~(W4 | W5);          /* a run of letters that is no literal */
        }
        /* and none goes on past its word (`truex`, `nulll`) */
        bad |= (W4 << 4 | pW4 >> 60 | W5 << 5 | pW5 >> 59) & L;
#undef NEXT
        /* the brackets: the depth, and where the array ends. A quarter of the window at a
         * time by the popcounts of its `[` and `]`, without a branch: the depth stays
         * above 0 and within dmax if it does so counting all of a quarter's `]` first and
         * all of its `[` first. Only a window where the array may end or go too deep is
         * taken bracket by bracket */
        uint64_t keep = ~0ull; /* the bits up to the array's end */
        int ended = -1;        /* where it ends in the chunk */
        int dd = d, edge = 0;
        int po = __builtin_popcountll(O), pc = __builtin_popcountll(C);
        if (d - pc > 0 && d + po <= dmax)
            dd = d + po - pc;
        else
#pragma GCC unroll 4
        for (int k = 0; k < 64; k += 16) {
            int o = __builtin_popcountll(O >> k & 0xffff), c = __builtin_popcountll(C >> k & 0xffff);
            edge |= (dd - c <= 0) | (dd + o > dmax);
            dd += o - c;
        }
        if (!edge)
            d = dd;
        else
        for (uint64_t br = O | C; br; br &= br - 1) {
            int i = __builtin_ctzll(br);
            d += (int)((O >> i) & 1) * 2 - 1;
            if (d == 0) {
                keep = i == 63 ? ~0ull : (2ull << i) - 1;
                ended = i;
                break;
            }
            if (d > dmax) {
                bad |= 1ull << i;
                break;
            }
        }
        bad &= keep;
        if (bad) {
            p += __builtin_ctzll(bad);
            goto fail;
        }
        if (M & keep)
            *comma = 1;
        if (ended >= 0)
            return p + ended + 1;
        if (avail <= 64)
            goto fail;
        in = (uint64_t)((int64_t)s >> 63);
        pO = O, pC = C, pM = M, pQC = qc, pD = D, pN = N, pL = L, pZs = Zs;
        pm1 = m1, pm2 = m2, pm4 = m4;
        pW4 = W4, pW5 = W5;
        p += 64;
    }
fail:
    *stop = p;
    return NULL;
}

static int have_popcnt = 0; /* set when the module loads */

static const unsigned char *plain_array64_any(const unsigned char *p, const unsigned char *end,
                                              int depth, int *comma, const unsigned char **stop)
{
    return plain_array64_at(p, end, depth, comma, stop);
}

/* the same, where the CPU counts a mask's bits in one instruction */
__attribute__((target("popcnt"))) static const unsigned char *
plain_array64_popcnt(const unsigned char *p, const unsigned char *end, int depth, int *comma,
                     const unsigned char **stop)
{
    return plain_array64_at(p, end, depth, comma, stop);
}

static inline const unsigned char *plain_array64(const unsigned char *p,
                                                 const unsigned char *end, int depth,
                                                 int *comma, const unsigned char **stop)
{
    return have_popcnt ? plain_array64_popcnt(p, end, depth, comma, stop)
                       : plain_array64_any(p, end, depth, comma, stop);
}
#else
static int flat_object(P *ps, int arrays)
{
    (void)ps, (void)arrays;
    return 0; /* (the general path) */
}
#endif

#if defined(__SSE2__)
/* The end of the array at p (its `[`, 16 bytes readable) when it closes within those 16 bytes
 * and holds only integers plain_integer copies (each -?(0|[1-9][0-9]*), not -0), bare `,`
 * between them (*comma: one is there), or nothing; else NULL, and plain_array decides. The
 * grammar as masks of the 16 bytes, no branch per element. Why: a token's byte values, a
 * box's corners, a shape, small id lists: each element took plain_integer_end's scan, then a
 * load and compare of where it ended, a chain per element (QA s26 `logprobs`, issue 15). */
static inline const unsigned char *short_int_array(const unsigned char *p, int *comma)
{
    const __m128i v = _mm_loadu_si128((const __m128i *)p);
    unsigned cl = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(']')));
    if (!cl)
        return NULL;
    unsigned k = (unsigned)__builtin_ctz(cl); /* the `]` (not byte 0: the `[`) */
    unsigned in = ((1u << k) - 1) & ~1u;      /* the bytes between */
    unsigned D = (unsigned)_mm_movemask_epi8(_mm_and_si128(
                     _mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)), _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1))));
    unsigned M = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(','))) & in;
    unsigned N = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('-'))) & in;
    unsigned Z = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('0')));
    unsigned S = (1u | M) << 1;                          /* where an element starts */
    unsigned bad = in & ~(D | M | N);                    /* nothing but digits, `,` and `-` */
    bad |= S & in & ~(D | N);                            /* an element starts so */
    bad |= N & ~S;                                       /* a `-` only at its start */
    bad |= (N << 1) & ~(D & ~Z);                         /* then 1-9 (-0 is parse_number's) */
    bad |= ((S & Z) << 1) & D;                           /* 0 then a digit: invalid */
    if (bad || (k > 1 && !(D >> (k - 1) & 1)))          /* the last one ends with a digit */
        return NULL;
    *comma = M != 0;
    return p + k + 1;
}
#endif

/* One scalar at p (an element's start) as RFC 8785 spells it, so that it is copied as it
 * stands: where it ends, or NULL when it is not one (the general path parses it). The
 * scalars: strings of printable ASCII, valid UTF-8 and the short escapes (`\"`, `\\`, `\b`,
 * `\f`, `\n`, `\r`, `\t`); integers plain_integer copies; decimals of at most 15 significant
 * digits without an exponent, the last digit of the fraction not 0, the point where every
 * writer spells the value plainly (-4 < n <= 16: parse_number's verbatim case); `true`,
 * `false`, `null`. *seen gains SC_FLT (a decimal: ST_FLOAT), SC_RAW (a byte >= 0x7f: not
 * ST_ASCII), SC_ESC (an escape). Why one function: scalar_row and scalar_run held this rule
 * twice (session 34's review R9); inlined into each, its flags stay in registers. */
enum { SC_COMMA = 1, SC_FLT = 2, SC_RAW = 4, SC_ESC = 8 };

static inline __attribute__((always_inline)) const unsigned char *
scalar_token(const unsigned char *p, const unsigned char *end, int *seen)
{
    if (p >= end)
        return NULL;
    unsigned c = *p;
    if (c == '"') {
        p++;
        for (;;) {
            p = plain_run(p, end);
            if (end - p < 2)
                return NULL;
            c = *p;
            if (c == '"')
                break;
            if (c == '\\') {
                if (!SHORT_ESC[p[1]])
                    return NULL; /* `\u`, `\/`: parse_string */
                *seen |= SC_ESC;
                p += 2;
            } else if (c < 0x20) {
                return NULL;
            } else { /* DEL or non-ASCII text */
                uint32_t cp;
                int n = c == 0x7f ? 1 : utf8_seq(p, end, &cp);
                if (n == 0)
                    return NULL;
                *seen |= SC_RAW;
                p += n;
            }
        }
        return p + 1;
    }
    if (c == '-' || is_digit(c)) {
        const unsigned char *i0 = p + (c == '-');
        if (i0 >= end || !is_digit(*i0))
            return NULL;
        const unsigned char *q = *i0 == '0' ? i0 + 1 : digit_run(i0, end);
        size_t ni = (size_t)(q - i0);
        if (q < end && *q == '.') {
            const unsigned char *f0 = q + 1;
            q = digit_run(f0, end);
            size_t nf = (size_t)(q - f0);
            if (nf == 0 || q[-1] == '0')
                return NULL;
            size_t lead = 0, k;
            if (*i0 == '0') { /* 0.000ddd: the fraction's leading zeros are no digits */
                while (lead < nf && f0[lead] == '0')
                    lead++;
                if (lead > 3) /* n = -lead: -4 < n */
                    return NULL;
                k = nf - lead;
            } else {
                k = ni + nf; /* (n = ni <= k) */
            }
            if (k > 15)
                return NULL;
            *seen |= SC_FLT;
        } else if (c == '-' && *i0 == '0') {
            return NULL; /* -0: parse_number writes 0 */
        } else if (ni > 15 && !safe_16(i0, ni)) {
            return NULL;
        }
        return q;
    }
    if (c == 't' && end - p >= 4 && memcmp(p, "true", 4) == 0)
        return p + 4;
    if (c == 'f' && end - p >= 5 && memcmp(p, "false", 5) == 0)
        return p + 5;
    if (c == 'n' && end - p >= 4 && memcmp(p, "null", 4) == 0)
        return p + 4;
    return NULL; /* a nested value, a space, anything else */
}

/* The end of the array at p (its `[`) when it holds scalars only (scalar_token), each
 * copied as it stands, with bare `,` between them (*seen gains SC_COMMA); else NULL (the
 * general path decides, from the array's start). Why: a SQL result's rows are arrays of
 * mixed scalars (QA s33 T7 `sqlrows`, issue 15); plain_array stops at the first decimal or
 * escape, and the general path's calls and dispatch a value were most of their cost. (Taken
 * as a prefix of the array inside the general loop instead, so that nothing is read twice,
 * its out-parameters in memory cost more than the second read: 38.0M instructions on 2 MB
 * of `sqlrows` against 30.5M.) */
static const unsigned char *scalar_row(const unsigned char *p, const unsigned char *end,
                                       int *seen)
{
    p++;
    if (p < end && *p == ']')
        return p + 1;
    int s = 0;
    for (;;) {
        p = scalar_token(p, end, &s);
        if (p == NULL || p >= end)
            return NULL;
        if (*p == ',') {
            s |= SC_COMMA;
            p++;
            continue;
        }
        if (*p != ']')
            return NULL;
        *seen = s;
        return p + 1;
    }
}

/* The run of an array's elements from p (an element's start) that scalar_row would take, up
 * to the first it would not: inside the general loop, a prefix of the array copied whole
 * (nothing read twice). Returns where the run ends and *st: RUN_END past the array's `]`;
 * RUN_VALUE at the start of an element the run does not take (after the bare `,` before
 * it: the general path parses that element); RUN_SEP at a `,` the general separator step
 * takes (one followed by a space, or at the line's end). Why: an observation vector of
 * rounded floats holds a `1.0` or `1e-05` every ~10 values (`floatarray`): scalar_row
 * declines the whole array, and each element took parse_value's call and dispatch. */
enum { RUN_VALUE, RUN_SEP, RUN_END };

static const unsigned char *scalar_run(const unsigned char *p, const unsigned char *end,
                                       int *st, int *seen)
{
    int s = 0;
    for (;;) {
        const unsigned char *v = p; /* the element's start */
        p = scalar_token(p, end, &s);
        /* after the element: `]`, a bare `,` and the next, or else the element is the
         * general path's from its start (`1.5e3`, `truex`, `"a" ]`) or the `,` is */
        if (p != NULL && p < end && *p == ']') {
            *st = RUN_END;
            p++;
            break;
        }
        if (p != NULL && p < end && *p == ',') {
            if (end - p < 2 || p[1] == ' ') {
                *st = RUN_SEP;
                break;
            }
            s |= SC_COMMA;
            p++;
            continue;
        }
        *st = RUN_VALUE;
        p = v;
        break;
    }
    *seen = s;
    return p;
}

/* scalar_row at ps->p, copied: 1; 0 when it declined (nothing written), -1 out of memory.
 * ps->row_hint: the last row it took held what plain_array stops at (a decimal, an escape,
 * a byte >= 0x7f), so that the next array tries it before plain_array: rows of a SQL result
 * come one after another, and plain_array's try before each cost ~15 % of their summary.
 * A declined or plain row clears the hint: long arrays of integers stay plain_array64's. */
static inline int take_scalar_row(P *ps)
{
    int seen = 0;
    const unsigned char *e = scalar_row(ps->p, ps->end, &seen);
    if (e == NULL) {
        ps->row_hint = 0;
        return 0;
    }
    size_t n = (size_t)(e - ps->p);
    if (buf_grow(&ps->out, n) < 0)
        return -1;
    memcpy(ps->out.p + ps->out.len, ps->p, n);
    ps->out.len += n;
    ps->p = e;
    if (seen & SC_COMMA)
        ps->sep_bare = 1;
    if (seen & SC_FLT)
        ps->flags |= ST_FLOAT;
    if (seen & SC_RAW)
        ps->flags &= ~ST_ASCII;
    ps->row_hint = (seen & (SC_FLT | SC_RAW | SC_ESC)) != 0;
    return 1;
}

static int parse_array(P *ps, int depth)
{
    if (depth > MAX_DEPTH || stack_short(ps))
        return NOTOK;
    int rc;
#if defined(__SSE2__)
    if (ps->end - ps->p >= 16) {
        int comma = 0;
        const unsigned char *e = short_int_array(ps->p, &comma);
        if (e != NULL) { /* copied whole, as plain_array's would be: one 16-byte store */
            if (buf_grow(&ps->out, 16) < 0)
                return -1;
            _mm_storeu_si128((__m128i *)(ps->out.p + ps->out.len),
                             _mm_loadu_si128((const __m128i *)ps->p));
            ps->out.len += (size_t)(e - ps->p);
            ps->p = e;
            if (comma)
                ps->sep_bare = 1;
            return 0;
        }
    }
#endif
    int taken;
    if (ps->row_hint && (taken = take_scalar_row(ps)) != 0)
        return taken < 0 ? -1 : 0;
    /* (an array of objects, a tool call's `args`: not tried, it would stop at once; nor an
     * array at the depth of a mixed row before it, see below) */
    if ((uintptr_t)ps->p >= (uintptr_t)ps->plain_fail && ps->end - ps->p > 1 && ps->p[1] != '{' &&
        ps->mixed_at != depth + 1) {
        int comma = 0;
#if defined(__SSE2__)
        /* a short array (a box's four numbers) byte by byte, a longer one 64 bytes at a time */
        const unsigned char *e = plain_array(ps->p, ps->end, depth, &comma, &ps->plain_fail,
                                             ps->p + PLAIN_SHORT);
        if (e == NULL && ps->plain_fail == NULL)
            e = plain_array64(ps->p, ps->end, depth, &comma, &ps->plain_fail);
#else
        const unsigned char *e = plain_array(ps->p, ps->end, depth, &comma, &ps->plain_fail,
                                             ps->end);
#endif
        if (e != NULL) {
            size_t n = (size_t)(e - ps->p);
            if (buf_grow(&ps->out, n) < 0)
                return -1;
            memcpy(ps->out.p + ps->out.len, ps->p, n);
            ps->out.len += n;
            ps->p = e;
            if (comma)
                ps->sep_bare = 1;
            return 0;
        }
    }
    PUTC(&ps->out, '[');
    ps->p++;
    if (ps->p < ps->end && *ps->p == ']') {
        ps->p++;
        PUTC(&ps->out, ']');
        return 0;
    }
    for (int first = 1, misses = 0;; first = 0) {
        /* a run of scalars as they stand (scalar_run), copied whole; then the element it
         * stopped at, or the separator after its last. An array it took whole from its first
         * element, with what plain_array stops at, sets the hint (take_scalar_row). Two
         * elements in a row it does not take end its tries in the array: telemetry's
         * 17-digit floats were each read twice (`numbers`, +1.6 % instructions); an object
         * or an array is not tried (`detections`' boxes, +0.5 %) */
        int st = RUN_VALUE, seen = 0, tried = 0;
        const unsigned char *e = ps->p;
        if (misses < 2 && ps->p < ps->end && *ps->p != '{' && *ps->p != '[') {
            tried = 1;
            e = scalar_run(ps->p, ps->end, &st, &seen);
            misses = e == ps->p && st == RUN_VALUE ? misses + 1 : 0;
        }
        if (e != ps->p) {
            size_t n = (size_t)(e - ps->p);
            if (buf_grow(&ps->out, n) < 0)
                return -1;
            memcpy(ps->out.p + ps->out.len, ps->p, n);
            ps->out.len += n;
            ps->p = e;
            if (seen & SC_COMMA)
                ps->sep_bare = 1;
            if (seen & SC_FLT)
                ps->flags |= ST_FLOAT;
            if (seen & SC_RAW)
                ps->flags &= ~ST_ASCII;
        }
        if (st == RUN_END) {
            ps->row_hint = first && (seen & (SC_FLT | SC_RAW | SC_ESC)) != 0;
            return 0;
        }
        /* A row whose first run took what plain_array stops at, and that scalar_row does not
         * take whole (an object or an exponent float among its scalars), makes the next
         * array at its depth skip plain_array's try, which would stop there too: rows of a
         * log come one after another (QA s34's `tuplelog`: ~140 instructions a row). A row
         * whose first run did not clears it: arrays of integers stay plain_array64's. */
        if (first) {
            if (seen & (SC_FLT | SC_RAW | SC_ESC))
                ps->mixed_at = depth + 1;
            else if (ps->mixed_at == depth + 1)
                ps->mixed_at = 0;
        }
        if (st == RUN_SEP)
            goto separator;
        if (ps->p >= ps->end)
            return NOTOK;
        /* The common elements without parse_value's dispatch: a nested array and a string
         * by their own calls, a plain integer copied (plain_integer); anything else takes
         * parse_value. Parse trees nest arrays ~15 deep of short strings and small integers
         * (`deeparrays`, issue 15): a call and a switch a value was most of their cost. */
        unsigned c = *ps->p;
        if (c == '[')
            rc = parse_array(ps, depth + 1);
        else if (c == '"')
            rc = parse_string(ps, NULL);
        else if (c == '{') /* (a row's object: parse_value's own call) */
            rc = parse_object(ps, depth + 1, ROLE_VALUE);
        else if (c == '-' || is_digit(c)) {
            /* a number the run stopped at is no plain integer (an exponent float, 17
             * digits: QA s34's `tuplelog`): parse_number at once */
            if (!tried && (rc = plain_integer(ps)) != 0)
                rc = rc < 0 ? -1 : 0;
            else
                rc = parse_number(ps);
        } else
            rc = parse_value(ps, depth, ROLE_VALUE);
        if (rc != 0)
            return rc;
    separator:
        if (ps->p >= ps->end)
            return NOTOK;
        if (*ps->p == ',') {
            ps->p++;
            PUTC(&ps->out, ',');
            after_sep(ps);
            continue;
        }
        if (*ps->p != ']')
            return NOTOK;
        ps->p++;
        PUTC(&ps->out, ']');
        return 0;
    }
}

static int literal(P *ps, const char *word, size_t n)
{
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
        return NOTOK;
    ps->p += n;
    PUT(&ps->out, word, n);
    return 0;
}

static int parse_value(P *ps, int depth, int role)
{
    if (ps->p >= ps->end)
        return NOTOK;
    switch (*ps->p) {
    case '{': return parse_object(ps, depth + 1, role);
    case '[': return parse_array(ps, depth + 1);
    case '"': return parse_string(ps, NULL);
    case 't': return literal(ps, "true", 4);
    case 'f': return literal(ps, "false", 5);
    case 'n': return literal(ps, "null", 4);
    default:
        if (*ps->p == '-' || is_digit(*ps->p))
            return parse_number(ps);
        return NOTOK; /* whitespace or anything else */
    }
}

/* ---- a line ----------------------------------------------------------------------------- */

/* Whether the n bytes at p are 64 lowercase hex digits. SSE2: four 16-byte range tests (a
 * table look-up a byte was ~390 instructions a hash, two hashes a line: ~5 % of the C summary
 * on short-payload shapes; session 35, issue 15). */
static int is_hex64(const unsigned char *p, size_t n)
{
    if (n != HEXLEN)
        return 0;
#if defined(__SSE2__)
    __m128i bad = _mm_setzero_si128();
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + 16 * j));
        /* signed compares: bytes >= 0x80 are negative, in neither range */
        __m128i dig = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                                    _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
        __m128i af = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('a' - 1)),
                                   _mm_cmplt_epi8(v, _mm_set1_epi8('f' + 1)));
        bad = _mm_or_si128(bad, _mm_andnot_si128(_mm_or_si128(dig, af), _mm_set1_epi8(-1)));
    }
    return _mm_movemask_epi8(bad) == 0;
#else
    unsigned bad = 0;
    for (size_t i = 0; i < HEXLEN; i++)
        bad |= LOWHEX[p[i]];
    return !(bad & 0x80);
#endif
}

/* Whether the 64 lowercase hex digits at rec (is_hex64's) spell the 32-byte digest md. SSE2:
 * the digest's nibbles spelled as hex and compared, 16 bytes at a time (was: rec decoded a
 * byte pair at a time through LOWHEX, ~190 instructions a line). */
static inline int hex_is_digest(const unsigned char *rec, const unsigned char *md)
{
#if defined(__SSE2__)
    const __m128i nib = _mm_set1_epi8(0x0f), nine = _mm_set1_epi8(9), zero = _mm_set1_epi8('0'),
                  gap = _mm_set1_epi8('a' - '0' - 10);
    int diff = 0;
    for (int j = 0; j < 2; j++) {
        __m128i d = _mm_loadu_si128((const __m128i *)(md + 16 * j));
        __m128i hi = _mm_and_si128(_mm_srli_epi16(d, 4), nib), lo = _mm_and_si128(d, nib);
        __m128i x[2] = {_mm_unpacklo_epi8(hi, lo), _mm_unpackhi_epi8(hi, lo)};
        for (int k = 0; k < 2; k++) {
            __m128i h = _mm_add_epi8(_mm_add_epi8(x[k], zero),
                                     _mm_and_si128(_mm_cmpgt_epi8(x[k], nine), gap));
            __m128i r = _mm_loadu_si128((const __m128i *)(rec + 32 * j + 16 * k));
            diff |= _mm_movemask_epi8(_mm_cmpeq_epi8(h, r)) ^ 0xffff;
        }
    }
    return diff == 0;
#else
    unsigned char recorded[32];
    for (int i = 0; i < 32; i++)
        recorded[i] = (unsigned char)(LOWHEX[rec[2 * i]] << 4 | LOWHEX[rec[2 * i + 1]]);
    return memcmp(recorded, md, 32) == 0;
#endif
}

static int sha256(const unsigned char *data, size_t n, unsigned char *md)
{
    if (c_sha256 && !force_python_sha) {
        _Alignas(16) unsigned char ctx[256];
        c_sha_init(ctx);
        c_sha_update(ctx, data, n);
        c_sha_final(md, ctx);
        return 0;
    }
    PyObject *h = PyObject_CallFunction(py_sha256, "y#", (const char *)data, (Py_ssize_t)n);
    if (h == NULL)
        return -1;
    PyObject *d = PyObject_CallMethod(h, "digest", NULL);
    Py_DECREF(h);
    if (d == NULL)
        return -1;
    memcpy(md, PyBytes_AS_STRING(d), 32);
    Py_DECREF(d);
    return 0;
}

/* 0 when the line is an ordinary event (facts in ps), NOTOK, or -1 (a Python error). */
static int scan_line(P *ps, const unsigned char *line, size_t n, const char *schema,
                     size_t schema_len, unsigned char *digest, int open_end)
{
    ps->s = ps->p = line;
    ps->end = line + n;
    ps->out.len = 0;
    ps->arena.len = 0;
    ps->nmem = 0;
    ps->seen = 0;
    ps->flags = ST_START;
    ps->sep_spaced = ps->sep_bare = ps->ea_escape = ps->schema_ok = 0;
    ps->schema = schema;
    ps->schema_len = schema_len;
    ps->plain_fail = NULL;
    if (n == 0 || line[0] != '{')
        return NOTOK;
    if (buf_grow(&ps->out, HEXLEN) < 0)
        return -1;
    ps->out.len = HEXLEN; /* room for prev_hash, which the hash covers first */
    int rc = parse_object(ps, 1, ROLE_TOP);
    if (rc != 0)
        return rc;
    if (open_end) { /* the line ends where its object does, at a newline or the block's end */
        if (ps->p != ps->end && *ps->p != '\n')
            return NOTOK;
        ps->end = ps->p;
    }
    if (ps->p != ps->end || ps->seen != (1 << F_COUNT) - 1 || sep_verdict(ps) != 0)
        return NOTOK;
    ea_verdict(ps);
    if (!ps->schema_ok && (ps->f_len[F_SCHEMA] != schema_len ||
                           memcmp(line + ps->f_off[F_SCHEMA], schema, schema_len) != 0))
        return NOTOK;
    if (!is_hex64(line + ps->f_off[F_PREV], ps->f_len[F_PREV]) ||
        !is_hex64(line + ps->f_off[F_HASH], ps->f_len[F_HASH]))
        return NOTOK;
    memcpy(ps->out.p, line + ps->f_off[F_PREV], HEXLEN);
    if (sha256((const unsigned char *)ps->out.p, ps->out.len, digest) < 0)
        return -1;
    if (hex_is_digest(line + ps->f_off[F_HASH], digest))
        ps->flags |= ST_INTACT;
    ps->flags |= ST_OK;
    return 0;
}

/* ---- Python objects --------------------------------------------------------------------- */

/* A str for bytes known to be valid UTF-8 (ASCII the fast way). */
static PyObject *make_str(const unsigned char *p, size_t n)
{
    size_t i = 0;
    while (i < n && p[i] < 0x80)
        i++;
    if (i < n)
        return PyUnicode_DecodeUTF8((const char *)p, (Py_ssize_t)n, "strict");
    PyObject *s = PyUnicode_New((Py_ssize_t)n, 127);
    if (s != NULL)
        memcpy(PyUnicode_1BYTE_DATA(s), p, n);
    return s;
}

/* A few recent values of a column, reused: producers, trust levels, types and the run_id
 * repeat, and equal str objects compare by identity first. */
#define CACHE_N 16
typedef struct {
    PyObject *obj[CACHE_N];
    unsigned char *bytes[CACHE_N];
    size_t len[CACHE_N];
    int next, hit;
} StrCache;

static PyObject *cached_str(StrCache *c, const unsigned char *p, size_t n)
{
    int h = c->hit;
    if (c->obj[h] != NULL && c->len[h] == n && memcmp(c->bytes[h], p, n) == 0) {
        Py_INCREF(c->obj[h]);
        return c->obj[h];
    }
    for (int i = 0; i < CACHE_N; i++)
        if (c->obj[i] != NULL && c->len[i] == n && memcmp(c->bytes[i], p, n) == 0) {
            c->hit = i;
            Py_INCREF(c->obj[i]);
            return c->obj[i];
        }
    PyObject *s = make_str(p, n);
    if (s == NULL)
        return NULL;
    unsigned char *copy = PyMem_Malloc(n ? n : 1);
    if (copy == NULL)
        return s; /* not cached; still correct */
    memcpy(copy, p, n);
    int k = c->next;
    c->next = (c->next + 1) % CACHE_N;
    Py_XDECREF(c->obj[k]);
    PyMem_Free(c->bytes[k]);
    Py_INCREF(s);
    c->obj[k] = s;
    c->bytes[k] = copy;
    c->len[k] = n;
    return s;
}

static void cache_clear(StrCache *c)
{
    for (int i = 0; i < CACHE_N; i++) {
        Py_XDECREF(c->obj[i]);
        PyMem_Free(c->bytes[i]);
        c->obj[i] = NULL;
        c->bytes[i] = NULL;
    }
}

enum { C_RECORDED, C_PREV, C_PRODUCER, C_TRUST, C_TYPE, C_SEQ, C_WALL, C_RUN, NCOLS };

PyDoc_STRVAR(scan_doc,
"scan(block, schema) -> (keys, digests, recorded, prevs, producers, trusts, types, seqs,\n"
"walls, run_ids, declined, broken, seeded)\n\n"
"One entry per `\\n`-terminated line of `block` (a last line without `\\n` included, a final\n"
"empty one not). `keys`: the ST_* bits of each line as native uint16s; `digests`: the 32-byte\n"
"computed hashes, joined (zeros where declined). The columns hold placeholders where the line\n"
"was declined. `declined`, `broken` (hashed, but not the recorded hash) and `seeded` (a\n"
"`seed_commitment` member in the payload): line indexes.");

static int append_index(PyObject *list, Py_ssize_t i)
{
    PyObject *idx = PyLong_FromSsize_t(i);
    if (idx == NULL)
        return -1;
    int rc = PyList_Append(list, idx);
    Py_DECREF(idx);
    return rc;
}

static PyObject *scan(PyObject *self, PyObject *args)
{
    Py_buffer block;
    const char *schema;
    Py_ssize_t schema_len;
    if (!PyArg_ParseTuple(args, "y*s#", &block, &schema, &schema_len))
        return NULL;
    const unsigned char *data = block.buf, *end = data + block.len;
    Py_ssize_t n = 0;
    for (const unsigned char *q = data; q < end;) {
        const unsigned char *nl = memchr(q, '\n', (size_t)(end - q));
        n++;
        if (nl == NULL)
            break;
        q = nl + 1;
    }
    PyObject *keys = PyBytes_FromStringAndSize(NULL, 2 * n);
    PyObject *digests = PyBytes_FromStringAndSize(NULL, 32 * n);
    PyObject *cols[NCOLS] = {0};
    PyObject *declined = PyList_New(0), *broken = PyList_New(0), *seeded = PyList_New(0);
    PyObject *result = NULL, *zero_hex = NULL, *empty = NULL, *wall0 = NULL, *zero = NULL;
    P ps;
    memset(&ps, 0, sizeof(ps));
    ps.floor = stack_floor();
    StrCache caches[4];
    memset(caches, 0, sizeof(caches));
    if (keys == NULL || digests == NULL || declined == NULL || broken == NULL || seeded == NULL)
        goto done;
    for (int c = 0; c < NCOLS; c++)
        if ((cols[c] = PyList_New(n)) == NULL)
            goto done;
    zero_hex = PyUnicode_FromString("0000000000000000000000000000000000000000000000000000000000000000");
    empty = PyUnicode_FromString("");
    wall0 = PyUnicode_FromString("2000-01-01T00:00:00.000Z");
    zero = PyLong_FromLong(0);
    if (!zero_hex || !empty || !wall0 || !zero)
        goto done;
    uint16_t *st = (uint16_t *)PyBytes_AS_STRING(keys);
    unsigned char *dg = (unsigned char *)PyBytes_AS_STRING(digests);
    PyObject *last_recorded = NULL; /* borrowed: the previous line's hash, usually this prev */
    const unsigned char *last_rec_bytes = NULL;
    const unsigned char *q = data;
    for (Py_ssize_t i = 0; i < n; i++) {
        const unsigned char *nl = memchr(q, '\n', (size_t)(end - q));
        const unsigned char *le = nl ? nl : end;
        int rc = scan_line(&ps, q, (size_t)(le - q), schema, (size_t)schema_len, dg + 32 * i, 0);
        if (rc < 0)
            goto done;
        PyObject *v[NCOLS];
        if (rc == NOTOK) {
            st[i] = 0;
            memset(dg + 32 * i, 0, 32);
            if (append_index(declined, i) < 0)
                goto done;
            v[C_RECORDED] = zero_hex; v[C_PREV] = zero_hex; v[C_PRODUCER] = empty;
            v[C_TRUST] = empty; v[C_TYPE] = empty; v[C_SEQ] = zero; v[C_WALL] = wall0;
            v[C_RUN] = empty;
            for (int c = 0; c < NCOLS; c++) {
                Py_INCREF(v[c]);
                PyList_SET_ITEM(cols[c], i, v[c]);
            }
            last_recorded = NULL;
            q = le + 1;
            continue;
        }
        st[i] = (uint16_t)ps.flags;
        if (!(ps.flags & ST_INTACT) && append_index(broken, i) < 0)
            goto done;
        if ((ps.flags & ST_SEED) && append_index(seeded, i) < 0)
            goto done;
        const unsigned char *prev = q + ps.f_off[F_PREV];
        if (last_recorded != NULL && memcmp(prev, last_rec_bytes, HEXLEN) == 0) {
            Py_INCREF(last_recorded);
            v[C_PREV] = last_recorded;
        } else {
            v[C_PREV] = make_str(prev, HEXLEN);
        }
        v[C_RECORDED] = make_str(q + ps.f_off[F_HASH], HEXLEN);
        v[C_PRODUCER] = cached_str(&caches[0], q + ps.f_off[F_PRODUCER], ps.f_len[F_PRODUCER]);
        v[C_TRUST] = cached_str(&caches[1], q + ps.f_off[F_TRUST], ps.f_len[F_TRUST]);
        v[C_TYPE] = cached_str(&caches[2], q + ps.f_off[F_TYPE], ps.f_len[F_TYPE]);
        v[C_RUN] = cached_str(&caches[3], q + ps.f_off[F_RUN], ps.f_len[F_RUN]);
        v[C_WALL] = make_str(q + ps.f_off[F_WALL], ps.f_len[F_WALL]);
        {
            const unsigned char *sp = q + ps.f_off[F_SEQ];
            size_t sl = ps.f_len[F_SEQ];
            long long sv = 0;
            int neg = sl > 0 && sp[0] == '-';
            for (size_t k = (size_t)neg; k < sl; k++)
                sv = sv * 10 + (sp[k] - '0');
            v[C_SEQ] = PyLong_FromLongLong(neg ? -sv : sv);
        }
        int failed = 0;
        for (int c = 0; c < NCOLS; c++) {
            if (v[c] == NULL) {
                failed = 1;
                v[c] = Py_None;
                Py_INCREF(Py_None);
            }
            PyList_SET_ITEM(cols[c], i, v[c]);
        }
        if (failed)
            goto done;
        last_recorded = v[C_RECORDED];
        last_rec_bytes = q + ps.f_off[F_HASH];
        q = le + 1;
    }
    result = PyTuple_Pack(13, keys, digests, cols[C_RECORDED], cols[C_PREV], cols[C_PRODUCER],
                          cols[C_TRUST], cols[C_TYPE], cols[C_SEQ], cols[C_WALL], cols[C_RUN],
                          declined, broken, seeded);
done:
    PyBuffer_Release(&block);
    Py_XDECREF(keys);
    Py_XDECREF(digests);
    Py_XDECREF(declined);
    Py_XDECREF(broken);
    Py_XDECREF(seeded);
    for (int c = 0; c < NCOLS; c++)
        Py_XDECREF(cols[c]);
    Py_XDECREF(zero_hex);
    Py_XDECREF(empty);
    Py_XDECREF(wall0);
    Py_XDECREF(zero);
    for (int c = 0; c < 4; c++)
        cache_clear(&caches[c]);
    p_free(&ps);
    return result;
}


/* The secrets markers of one call (trajectory.MARKERS): each at least 2 bytes long. */
typedef struct {
    const unsigned char *mk[64];
    Py_ssize_t ml[64];
    unsigned char bk[64]; /* each marker's bucket (see marker_set) */
    Py_ssize_t nm;
    uint64_t all;
    unsigned char bitmap[8192]; /* the markers' first two bytes, as a 16-bit set */
    /* nibble tables of each marker's first four bytes, a bit per bucket (bk; a shorter
     * marker's third or fourth byte is any byte) */
    unsigned char lo1[16], hi1[16], lo2[16], hi2[16], lo3[16], hi3[16], lo4[16], hi4[16];
    /* the buckets a candidate keeps for its fifth byte (a bucket holding a marker shorter
     * than five bytes keeps every byte): the escapes that can hide a marker (`\u004`..`\u007`,
     * `\u0020`, `\u002d`) share their first four bytes with every `\u00XX` escape, a
     * candidate at each `\u00e9` of ensure_ascii's Latin text (s27 open item 3, session 28) */
    unsigned char five[256];
    /* the same as nibble tables, for a window holding candidates only (kept out of the
     * search's registers: a fifth pair there cost ~3 % on shapes without candidates): Go's
     * `\u003c` / `\u003e` share their first four bytes with the escapes' bucket, a candidate
     * every ~35 bytes of Go's shell output, each a scalar step (QA s30 `goescaped`) */
    unsigned char lo5[16], hi5[16], lo6[16], hi6[16]; /* (and the sixth's) */
    /* each bucket's markers (a bit per marker), the markers each byte may be the fifth and
     * the sixth byte of (a shorter marker: any byte), and each marker's first and last 8
     * bytes (the first masked to its length): a candidate is compared only with the markers
     * of its buckets its fifth and sixth bytes allow, by two 8-byte loads each, not with
     * every marker by a memcmp call. Go's `\u0026` is a candidate of `\u0020` / `\u002d`
     * every ~70 bytes of `goescaped`: ~75 cycles each, 0.36 ns a byte (session 31). */
    uint64_t bmask[8], at5[256], at6[256];
    uint64_t head[64], headmask[64], tail[64];
    /* How often the lines searched so far in this call had a window of four-byte
     * candidates (see teddy32): when most windows do, the next lines are searched with the
     * fifth and sixth bytes' tables always applied (teddy32_dense), with no branch on them.
     * A string of coloured terminal output holds an ESC (`\u001b`, a `\u00` candidate) every
     * ~20 bytes, and the branch to those tables then went either way at random (QA s31
     * `ansicolors`, session 32). The state is the call's: a block decides for itself. */
    unsigned windows, cand_windows;
} MarkerSet;

/* 0, or -1 with an exception. The set borrows the tuple's bytes: keep the tuple alive. */
static int marker_set(MarkerSet *ms, PyObject *tup)
{
    memset(ms, 0, sizeof(*ms));
    ms->nm = PyTuple_GET_SIZE(tup);
    if (ms->nm > 64) {
        PyErr_SetString(PyExc_ValueError, "at most 64 markers");
        return -1;
    }
    for (Py_ssize_t j = 0; j < ms->nm; j++) {
        PyObject *m = PyTuple_GET_ITEM(tup, j);
        if (!PyBytes_Check(m) || PyBytes_GET_SIZE(m) < 2) {
            PyErr_SetString(PyExc_ValueError, "markers are bytes of 2 or more");
            return -1;
        }
        ms->mk[j] = (const unsigned char *)PyBytes_AS_STRING(m);
        ms->ml[j] = PyBytes_GET_SIZE(m);
    }
    /* Buckets: markers alike in their first four bytes share one (the escapes `\u004`,
     * `\u0020`, ... : one bucket, whose fourth byte is then `0` only), the groups of markers of
     * four bytes or more first, in turn, then those with a shorter one (whose third or fourth
     * byte is any byte: a bucket they share takes any byte there). Why: with a bucket per
     * marker % 8, `sk-` and `\u004` shared one, and every `\u04xx` escape of Cyrillic text was
     * a candidate checked against each marker (QA s26 `uescapes`, session 27).
     * Markers alike in their first four bytes are grouped by whether they have a sixth byte
     * (`\u004` apart from `\u0020`), and such groups take the first buckets, the short
     * markers the last (in turn after the long ones: taken from the last bucket down, their
     * new pairs' nibble tables took common text, +4 % on `detections`): the buckets of a common prefix hold no marker whose fifth or sixth byte
     * is any, so a window's candidates there are dropped on those bytes (Go's `\u003c`,
     * `\u0026`: QA s30 `goescaped`, session 31). */
    unsigned char group[64];
    int ngroups = 0, short_group[64], shared[64];
    for (Py_ssize_t j = 0; j < ms->nm; j++) {
        int g = -1;
        for (Py_ssize_t i = 0; i < j && g < 0; i++)
            if (ms->ml[i] >= 4 && ms->ml[j] >= 4 && memcmp(ms->mk[i], ms->mk[j], 4) == 0 &&
                (ms->ml[i] >= 6) == (ms->ml[j] >= 6))
                g = group[i];
        if (g < 0) {
            g = ngroups++;
            short_group[g] = 0;
            shared[g] = 0;
        }
        group[j] = (unsigned char)g;
        short_group[g] |= ms->ml[j] < 4;
    }
    for (Py_ssize_t j = 0; j < ms->nm; j++) /* a group sharing its first 4 bytes with another */
        for (Py_ssize_t i = 0; i < ms->nm; i++)
            if (group[i] != group[j] && ms->ml[i] >= 4 && ms->ml[j] >= 4 &&
                memcmp(ms->mk[i], ms->mk[j], 4) == 0)
                shared[group[j]] = 1;
    int bucket_of[64], next = 0;
    for (int pass = 1; pass >= 0; pass--) /* the shared groups first, then the other long */
        for (int g = 0; g < ngroups; g++)
            if (!short_group[g] && shared[g] == pass)
                bucket_of[g] = next++ & 7;
    for (int g = 0; g < ngroups; g++) /* then the short ones, in turn */
        if (short_group[g])
            bucket_of[g] = next++ & 7;
    for (Py_ssize_t j = 0; j < ms->nm; j++) {
        const unsigned char *k = ms->mk[j];
        ms->bk[j] = (unsigned char)bucket_of[group[j]];
        unsigned u = k[0] | (unsigned)k[1] << 8;
        ms->bitmap[u >> 3] |= (unsigned char)(1u << (u & 7));
        unsigned char b = (unsigned char)(1u << ms->bk[j]);
        ms->lo1[k[0] & 15] |= b;
        ms->hi1[k[0] >> 4] |= b;
        ms->lo2[k[1] & 15] |= b;
        ms->hi2[k[1] >> 4] |= b;
        if (ms->ml[j] >= 3) {
            ms->lo3[k[2] & 15] |= b;
            ms->hi3[k[2] >> 4] |= b;
        } else {
            for (int v = 0; v < 16; v++) {
                ms->lo3[v] |= b;
                ms->hi3[v] |= b;
            }
        }
        if (ms->ml[j] >= 4) {
            ms->lo4[k[3] & 15] |= b;
            ms->hi4[k[3] >> 4] |= b;
        } else {
            for (int v = 0; v < 16; v++) {
                ms->lo4[v] |= b;
                ms->hi4[v] |= b;
            }
        }
        if (ms->ml[j] >= 5) {
            ms->five[k[4]] |= b;
            ms->lo5[k[4] & 15] |= b;
            ms->hi5[k[4] >> 4] |= b;
        } else {
            for (int v = 0; v < 256; v++)
                ms->five[v] |= b;
            for (int v = 0; v < 16; v++) {
                ms->lo5[v] |= b;
                ms->hi5[v] |= b;
            }
        }
        if (ms->ml[j] >= 6) {
            ms->lo6[k[5] & 15] |= b;
            ms->hi6[k[5] >> 4] |= b;
        } else {
            for (int v = 0; v < 16; v++) {
                ms->lo6[v] |= b;
                ms->hi6[v] |= b;
            }
        }
        ms->bmask[ms->bk[j]] |= (uint64_t)1 << j;
        for (int v = 0; v < 256; v++) {
            if (ms->ml[j] < 5 || k[4] == v)
                ms->at5[v] |= (uint64_t)1 << j;
            if (ms->ml[j] < 6 || k[5] == v)
                ms->at6[v] |= (uint64_t)1 << j;
        }
        size_t hl = ms->ml[j] < 8 ? (size_t)ms->ml[j] : 8;
        uint64_t h = 0, t = 0;
        memcpy(&h, k, hl);
        if (ms->ml[j] >= 8)
            memcpy(&t, k + ms->ml[j] - 8, 8);
        ms->head[j] = h;
        ms->headmask[j] = hl == 8 ? ~(uint64_t)0 : (((uint64_t)1 << (8 * hl)) - 1);
        ms->tail[j] = t;
    }
    ms->all = ms->nm == 64 ? ~(uint64_t)0 : (((uint64_t)1 << ms->nm) - 1);
    return 0;
}

/* Mark in *found the markers (of those in `buckets`, a bit per bucket) that start at. */
static inline void verify_at(const MarkerSet *ms, const unsigned char *p, Py_ssize_t len,
                             Py_ssize_t at, unsigned buckets, uint64_t *found)
{
    uint64_t c = 0;
    while (buckets) {
        c |= ms->bmask[__builtin_ctz(buckets)];
        buckets &= buckets - 1;
    }
    if (at + 4 < len) /* (a marker of 5 bytes or more cannot start here otherwise) */
        c &= ms->at5[p[at + 4]];
    if (at + 5 < len)
        c &= ms->at6[p[at + 5]];
    c &= ~*found;
    while (c) {
        int j = __builtin_ctzll(c);
        c &= c - 1;
        {
            Py_ssize_t n = ms->ml[j];
            if (at + n > len)
                continue;
            int hit;
            if (n <= 16 && at + 16 <= len) { /* (the loads stay within p[0:len]) */
                uint64_t h;
                memcpy(&h, p + at, 8);
                hit = (h & ms->headmask[j]) == ms->head[j];
                if (hit && n > 8) {
                    uint64_t t;
                    memcpy(&t, p + at + n - 8, 8);
                    hit = t == ms->tail[j];
                }
            } else {
                hit = memcmp(p + at, ms->mk[j], (size_t)n) == 0;
            }
            if (hit)
                *found |= (uint64_t)1 << j;
        }
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#include <tmmintrin.h>
/* Teddy-style: 16 positions at a time, the nibble tables giving each byte the buckets whose
 * first (second, third, fourth) byte it may be; a candidate is a bucket set at p+i to p+i+3.
 * Three bytes, not two: a two-byte prefix of a marker is common text (`gh` of `ghp_` and
 * `github_pat_` every ~160 bytes of English words, `ea` of `earer`), and each candidate costs
 * a check of the markers: with two bytes the search took 0.17 ns a byte of the bench corpus,
 * as much as a third of the parse (session 17). Four, not three: the escapes that can hide a
 * marker (`\u004`, `\u0020`: secrets.ESCAPE_MARKERS) share their first three bytes with every
 * `\u0400`-`\u0fff` escape of ensure_ascii's Cyrillic, Greek or Hebrew, a candidate every
 * ~6 bytes of such text (+34 % CPU on QA s26 `uescapes`, session 27). Every position before
 * the returned index is checked. */
__attribute__((target("ssse3"))) static Py_ssize_t
teddy(const MarkerSet *ms, const unsigned char *p, Py_ssize_t len, uint64_t *found)
{
    const __m128i L1 = _mm_loadu_si128((const __m128i *)ms->lo1);
    const __m128i H1 = _mm_loadu_si128((const __m128i *)ms->hi1);
    const __m128i L2 = _mm_loadu_si128((const __m128i *)ms->lo2);
    const __m128i H2 = _mm_loadu_si128((const __m128i *)ms->hi2);
    const __m128i L3 = _mm_loadu_si128((const __m128i *)ms->lo3);
    const __m128i H3 = _mm_loadu_si128((const __m128i *)ms->hi3);
    const __m128i L4 = _mm_loadu_si128((const __m128i *)ms->lo4);
    const __m128i H4 = _mm_loadu_si128((const __m128i *)ms->hi4);
    const __m128i low = _mm_set1_epi8(0x0f), zero = _mm_setzero_si128();
    Py_ssize_t i = 0;
    for (; i + 19 <= len && *found != ms->all; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(p + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(p + i + 1));
        __m128i c = _mm_loadu_si128((const __m128i *)(p + i + 2));
        __m128i c1 = _mm_and_si128(_mm_shuffle_epi8(L1, _mm_and_si128(a, low)),
                                   _mm_shuffle_epi8(H1, _mm_and_si128(_mm_srli_epi16(a, 4), low)));
        __m128i c2 = _mm_and_si128(_mm_shuffle_epi8(L2, _mm_and_si128(b, low)),
                                   _mm_shuffle_epi8(H2, _mm_and_si128(_mm_srli_epi16(b, 4), low)));
        __m128i c3 = _mm_and_si128(_mm_shuffle_epi8(L3, _mm_and_si128(c, low)),
                                   _mm_shuffle_epi8(H3, _mm_and_si128(_mm_srli_epi16(c, 4), low)));
        __m128i d = _mm_loadu_si128((const __m128i *)(p + i + 3));
        __m128i c4 = _mm_and_si128(_mm_shuffle_epi8(L4, _mm_and_si128(d, low)),
                                   _mm_shuffle_epi8(H4, _mm_and_si128(_mm_srli_epi16(d, 4), low)));
        __m128i hit = _mm_and_si128(_mm_and_si128(c1, c2), _mm_and_si128(c3, c4));
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(hit, zero)) ^ 0xFFFFu;
        if (mask && i + 21 <= len) { /* the fifth and sixth bytes, where a candidate is */
            __m128i e = _mm_loadu_si128((const __m128i *)(p + i + 4));
            __m128i c5 = _mm_and_si128(
                _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)ms->lo5), _mm_and_si128(e, low)),
                _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)ms->hi5),
                                 _mm_and_si128(_mm_srli_epi16(e, 4), low)));
            __m128i f = _mm_loadu_si128((const __m128i *)(p + i + 5));
            __m128i c6 = _mm_and_si128(
                _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)ms->lo6), _mm_and_si128(f, low)),
                _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)ms->hi6),
                                 _mm_and_si128(_mm_srli_epi16(f, 4), low)));
            hit = _mm_and_si128(hit, _mm_and_si128(c5, c6));
            mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(hit, zero)) ^ 0xFFFFu;
        }
        if (mask) {
            unsigned char buckets[16];
            _mm_storeu_si128((__m128i *)buckets, hit);
            while (mask) {
                int k = __builtin_ctz(mask);
                mask &= mask - 1;
                unsigned bk = buckets[k];
                if (i + k + 4 < len)
                    bk &= ms->five[p[i + k + 4]];
                if (bk)
                    verify_at(ms, p, len, i + k, bk, found);
            }
        }
    }
    return i;
}

/* `teddy` 32 positions at a time (the nibble tables in both 128-bit lanes: the byte shuffle
 * works per lane); the same candidates, half the loop trips. */
__attribute__((target("avx2"))) static Py_ssize_t
teddy32(MarkerSet *ms, const unsigned char *p, Py_ssize_t len, Py_ssize_t i,
        Py_ssize_t stop, uint64_t *found)
{
    const Py_ssize_t i0 = i;
    unsigned cands = 0;
    const __m256i L1 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)ms->lo1));
    const __m256i H1 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)ms->hi1));
    const __m256i L2 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)ms->lo2));
    const __m256i H2 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)ms->hi2));
    const __m256i L3 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)ms->lo3));
    const __m256i H3 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)ms->hi3));
    const __m256i L4 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)ms->lo4));
    const __m256i H4 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)ms->hi4));
    const __m256i low = _mm256_set1_epi8(0x0f), zero = _mm256_setzero_si256();
    for (; i + 35 <= len && i < stop && *found != ms->all; i += 32) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(p + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(p + i + 1));
        __m256i c = _mm256_loadu_si256((const __m256i *)(p + i + 2));
        __m256i c1 = _mm256_and_si256(
            _mm256_shuffle_epi8(L1, _mm256_and_si256(a, low)),
            _mm256_shuffle_epi8(H1, _mm256_and_si256(_mm256_srli_epi16(a, 4), low)));
        __m256i c2 = _mm256_and_si256(
            _mm256_shuffle_epi8(L2, _mm256_and_si256(b, low)),
            _mm256_shuffle_epi8(H2, _mm256_and_si256(_mm256_srli_epi16(b, 4), low)));
        __m256i c3 = _mm256_and_si256(
            _mm256_shuffle_epi8(L3, _mm256_and_si256(c, low)),
            _mm256_shuffle_epi8(H3, _mm256_and_si256(_mm256_srli_epi16(c, 4), low)));
        __m256i d = _mm256_loadu_si256((const __m256i *)(p + i + 3));
        __m256i c4 = _mm256_and_si256(
            _mm256_shuffle_epi8(L4, _mm256_and_si256(d, low)),
            _mm256_shuffle_epi8(H4, _mm256_and_si256(_mm256_srli_epi16(d, 4), low)));
        __m256i hit = _mm256_and_si256(_mm256_and_si256(c1, c2), _mm256_and_si256(c3, c4));
        unsigned mask = ~(unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(hit, zero));
        cands += mask != 0;
        if (mask && i + 37 <= len) { /* the fifth and sixth bytes, where a candidate is */
            __m256i e = _mm256_loadu_si256((const __m256i *)(p + i + 4));
            __m256i L5 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)ms->lo5));
            __m256i H5 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)ms->hi5));
            __m256i c5 = _mm256_and_si256(
                _mm256_shuffle_epi8(L5, _mm256_and_si256(e, low)),
                _mm256_shuffle_epi8(H5, _mm256_and_si256(_mm256_srli_epi16(e, 4), low)));
            __m256i f = _mm256_loadu_si256((const __m256i *)(p + i + 5));
            __m256i L6 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)ms->lo6));
            __m256i H6 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)ms->hi6));
            __m256i c6 = _mm256_and_si256(
                _mm256_shuffle_epi8(L6, _mm256_and_si256(f, low)),
                _mm256_shuffle_epi8(H6, _mm256_and_si256(_mm256_srli_epi16(f, 4), low)));
            hit = _mm256_and_si256(hit, _mm256_and_si256(c5, c6));
            mask = ~(unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(hit, zero));
        }
        if (mask) {
            unsigned char buckets[32];
            _mm256_storeu_si256((__m256i *)buckets, hit);
            while (mask) {
                int k = __builtin_ctz(mask);
                mask &= mask - 1;
                unsigned bk = buckets[k];
                if (i + k + 4 < len)
                    bk &= ms->five[p[i + k + 4]];
                if (bk)
                    verify_at(ms, p, len, i + k, bk, found);
            }
        }
    }
    ms->windows += (unsigned)((i - i0) >> 5);
    ms->cand_windows += cands;
    return i;
}
/* teddy32 with the fifth and sixth bytes' tables applied in every window, without a branch
 * on them: for text where most windows hold a four-byte candidate that the fifth byte drops
 * (`\u001b` of terminal colours, Go's `\u003c`: a `\u00` prefix of the escape markers'
 * buckets). The same candidates reach verify_at, and the same markers are found. */
__attribute__((target("avx2"))) static Py_ssize_t
teddy32_dense(MarkerSet *ms, const unsigned char *p, Py_ssize_t len, Py_ssize_t i,
              Py_ssize_t stop, uint64_t *found)
{
    const Py_ssize_t i0 = i;
#define NIB32(L, H, v)                                                                         \
    _mm256_and_si256(_mm256_shuffle_epi8((L), _mm256_and_si256((v), low)),                     \
                     _mm256_shuffle_epi8((H), _mm256_and_si256(_mm256_srli_epi16((v), 4), low)))
#define TAB32(t) _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(t)))
    const __m256i L1 = TAB32(ms->lo1), H1 = TAB32(ms->hi1), L2 = TAB32(ms->lo2),
                  H2 = TAB32(ms->hi2), L3 = TAB32(ms->lo3), H3 = TAB32(ms->hi3),
                  L4 = TAB32(ms->lo4), H4 = TAB32(ms->hi4), L5 = TAB32(ms->lo5),
                  H5 = TAB32(ms->hi5), L6 = TAB32(ms->lo6), H6 = TAB32(ms->hi6);
    const __m256i low = _mm256_set1_epi8(0x0f), zero = _mm256_setzero_si256();
    unsigned cands = 0;
    for (; i + 37 <= len && i < stop && *found != ms->all; i += 32) {
        const unsigned char *b = p + i;
        __m256i h4 = _mm256_and_si256(
            _mm256_and_si256(NIB32(L1, H1, _mm256_loadu_si256((const __m256i *)b)),
                             NIB32(L2, H2, _mm256_loadu_si256((const __m256i *)(b + 1)))),
            _mm256_and_si256(NIB32(L3, H3, _mm256_loadu_si256((const __m256i *)(b + 2))),
                             NIB32(L4, H4, _mm256_loadu_si256((const __m256i *)(b + 3)))));
        __m256i hit = _mm256_and_si256(
            h4, _mm256_and_si256(NIB32(L5, H5, _mm256_loadu_si256((const __m256i *)(b + 4))),
                                 NIB32(L6, H6, _mm256_loadu_si256((const __m256i *)(b + 5)))));
        cands += !_mm256_testz_si256(h4, h4);
        unsigned mask = ~(unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(hit, zero));
        if (mask) {
            unsigned char buckets[32];
            _mm256_storeu_si256((__m256i *)buckets, hit);
            while (mask) {
                int k = __builtin_ctz(mask);
                mask &= mask - 1;
                unsigned bk = buckets[k] & ms->five[p[i + k + 4]];
                if (bk)
                    verify_at(ms, p, len, i + k, bk, found);
            }
        }
    }
#undef NIB32
#undef TAB32
    ms->windows += (unsigned)((i - i0) >> 5);
    ms->cand_windows += cands;
    return i;
}
/* teddy32 64 positions a step, with AVX-512BW: the compares give 64-bit masks at once (no
 * movemask per half), half the loop trips again. The same candidates reach verify_at; the
 * same markers are found. Every marker search of the summary (each line's whole bytes) goes
 * through here on such a CPU: 0.08 -> 0.07 ns a byte on text without candidates, and where
 * most windows hold one (`\u001b`), 0.14 -> 0.11 (teddy32_dense's gain is in the branch on
 * the fifth and sixth bytes, taken half the time; here a window is 64 bytes and an always
 * taken step measured no better: session 32). */
__attribute__((target("avx512bw,avx512vl,avx2"))) static Py_ssize_t
teddy64(MarkerSet *ms, const unsigned char *p, Py_ssize_t len, Py_ssize_t i, Py_ssize_t stop,
        uint64_t *found)
{
#define NIB64(L, H, v)                                                                         \
    _mm512_and_si512(_mm512_shuffle_epi8((L), _mm512_and_si512((v), low)),                     \
                     _mm512_shuffle_epi8((H), _mm512_and_si512(_mm512_srli_epi16((v), 4), low)))
#define TAB64(t) _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(t)))
    const __m512i L1 = TAB64(ms->lo1), H1 = TAB64(ms->hi1), L2 = TAB64(ms->lo2),
                  H2 = TAB64(ms->hi2), L3 = TAB64(ms->lo3), H3 = TAB64(ms->hi3),
                  L4 = TAB64(ms->lo4), H4 = TAB64(ms->hi4);
    const __m512i low = _mm512_set1_epi8(0x0f);
    for (; i + 69 <= len && i < stop && *found != ms->all; i += 64) {
        const unsigned char *b = p + i;
        __m512i hit = _mm512_and_si512(
            _mm512_and_si512(NIB64(L1, H1, _mm512_loadu_si512((const void *)b)),
                             NIB64(L2, H2, _mm512_loadu_si512((const void *)(b + 1)))),
            _mm512_and_si512(NIB64(L3, H3, _mm512_loadu_si512((const void *)(b + 2))),
                             NIB64(L4, H4, _mm512_loadu_si512((const void *)(b + 3)))));
        uint64_t mask = _mm512_test_epi8_mask(hit, hit);
        if (mask) { /* the fifth and sixth bytes (i + 69 <= len: their loads are in p) */
            __m512i h56 = _mm512_and_si512(
                NIB64(TAB64(ms->lo5), TAB64(ms->hi5), _mm512_loadu_si512((const void *)(b + 4))),
                NIB64(TAB64(ms->lo6), TAB64(ms->hi6), _mm512_loadu_si512((const void *)(b + 5))));
            hit = _mm512_and_si512(hit, h56);
            mask = _mm512_test_epi8_mask(hit, hit);
        }
        if (mask) {
            unsigned char buckets[64];
            _mm512_storeu_si512((void *)buckets, hit);
            while (mask) {
                int k = __builtin_ctzll(mask);
                mask &= mask - 1;
                unsigned bk = buckets[k] & ms->five[p[i + k + 4]];
                if (bk)
                    verify_at(ms, p, len, i + k, bk, found);
            }
        }
    }
#undef NIB64
#undef TAB64
    return i;
}
#endif

/* The markers found in p[0:len], added to `found`. */
static uint64_t find_markers(MarkerSet *ms, const unsigned char *p, Py_ssize_t len,
                             uint64_t found)
{
    Py_ssize_t i = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    if (have_avx512)
        i = teddy64(ms, p, len, 0, len, &found);
    /* dense: more than a third of the call's windows so far held a four-byte candidate (a
     * branch taken that often, and not always, mispredicts more than the tables cost) */
    if (have_avx2)
        while (i + 37 <= len && found != ms->all) { /* (a block in one call: 4 KiB a choice) */
            Py_ssize_t stop = i + 4096;
            i = 3 * ms->cand_windows > ms->windows
                    ? teddy32_dense(ms, p, len, i, stop, &found)
                    : teddy32(ms, p, len, i, stop, &found);
        }
    if (have_ssse3)
        i += teddy(ms, p + i, len - i, &found);
#endif
    for (; i + 1 < len && found != ms->all; i++) { /* the tail, or a CPU without SSSE3 */
        unsigned u = p[i] | (unsigned)p[i + 1] << 8;
        if (ms->bitmap[u >> 3] & (1u << (u & 7)))
            verify_at(ms, p, len, i, 0xFF, &found);
    }
    return found;
}

/* ---- a block summed up ------------------------------------------------------------------ */

static long long seq_value(const P *ps, const unsigned char *line)
{
    const unsigned char *sp = line + ps->f_off[F_SEQ];
    size_t sl = ps->f_len[F_SEQ];
    long long sv = 0;
    int neg = sl > 0 && sp[0] == '-';
    for (size_t k = (size_t)neg; k < sl; k++)
        sv = sv * 10 + (sp[k] - '0');
    return neg ? -sv : sv;
}

/* `YYYY-MM-DDTHH:MM:SS.mmmZ` with seconds below 60 (trajectory._uniform_walls: such strings
 * order as their times do; the date, hour and minute are checked in Python, once each). */
static int uniform_wall(const unsigned char *w, size_t n)
{
    static const char shape[] = "0000-00-00T00:00:00.000Z";
    if (n != 24)
        return 0;
    for (int i = 0; i < 24; i++) {
        if (shape[i] == '0') {
            if (w[i] < '0' || w[i] > '9')
                return 0;
        } else if (w[i] != (unsigned char)shape[i]) {
            return 0;
        }
    }
    return w[17] <= '5';
}

typedef struct {
    const unsigned char *name, *trust, *first_wall, *last_wall;
    size_t name_len, trust_len;
    Py_ssize_t count, first, last;
    long long first_seq, last_seq;
} Prod;

#define MAX_PRODUCERS 16
#define MAX_DISTINCT 32

typedef struct {
    const unsigned char *p[MAX_DISTINCT];
    size_t len[MAX_DISTINCT];
    int n;
} Distinct;

/* 1 when added or present, 0 when the set is full */
static int distinct_add(Distinct *d, const unsigned char *p, size_t n)
{
    for (int i = d->n - 1; i >= 0; i--)
        if (d->len[i] == n && same_bytes(d->p[i], p, n))
            return 1;
    if (d->n == MAX_DISTINCT)
        return 0;
    d->p[d->n] = p;
    d->len[d->n++] = n;
    return 1;
}

static PyObject *distinct_list(const Distinct *d)
{
    PyObject *out = PyList_New(d->n);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < d->n; i++) {
        PyObject *s = make_str(d->p[i], d->len[i]);
        if (s == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, s);
    }
    return out;
}

PyDoc_STRVAR(summarise_doc,
"summarise(block, schema, markers=None) -> tuple | None\n\n"
"The facts `trajectory._Columns.summary` derives, without a Python object per line, for a block\n"
"whose every line `scan` vouches for, whose hashes recompute and link, with one run_id, each\n"
"producer one trust level, sequence numbers increasing and `YYYY-MM-DDTHH:MM:SS.mmmZ` wall\n"
"times not going back, with at most 64 lines holding one of `markers` (secrets markers); None\n"
"otherwise (the caller then takes the columns). Returns (events,\n"
"first prev_hash, last hash, run_id, producers, min wall, max wall, first run_start wall or\n"
"None, last run_end wall or None, types, minutes, keys, suspects): producers as (name, trust, events,\n"
"first index, last index, first sequence, last sequence, first wall, last wall) in order of\n"
"first appearance; types and minutes (`YYYY-MM-DDTHH:MM`) distinct; keys the distinct status\n"
"keys of the lines; suspects the (start, end) offsets of the lines holding one of `markers`,\n"
"for the caller's secrets scan.");

static PyObject *summarise(PyObject *self, PyObject *args)
{
    Py_buffer block;
    const char *schema;
    Py_ssize_t schema_len;
    PyObject *marker_tuple = NULL;
    if (!PyArg_ParseTuple(args, "y*s#|O!", &block, &schema, &schema_len, &PyTuple_Type,
                          &marker_tuple))
        return NULL;
    MarkerSet ms;
    if (marker_tuple != NULL && marker_set(&ms, marker_tuple) < 0) {
        PyBuffer_Release(&block);
        return NULL;
    }
    const unsigned char *data = block.buf, *end = data + block.len;
    P ps;
    memset(&ps, 0, sizeof(ps));
    ps.floor = stack_floor();
    Prod prods[MAX_PRODUCERS];
    int nprod = 0, last_prod = 0, ok = 1;
    Distinct types = {0}, minutes = {0};
    uint16_t keys[64];
    int nkeys = 0;
    const unsigned char *first_prev = NULL, *last_hash = NULL, *run_id = NULL;
    size_t run_len = 0;
    const unsigned char *wmin = NULL, *wmax = NULL, *wstart = NULL, *wend = NULL;
    Py_ssize_t n = 0;
    Py_ssize_t sus[MAX_SUSPECTS][2];
    int nsus = 0;
    PyObject *result = NULL;
    unsigned char digest[32];
    const unsigned char *q = data;
    while (q < end && ok) {
        /* The line is parsed up to the block's end and ends with its object: a line the parse
         * accepts holds no raw newline (in a string it is a control character, elsewhere no
         * token), so this is the line memchr would cut, without a pass of its own over the
         * bytes (~5 % of the summary). A line it declines declines the block. */
        int rc = scan_line(&ps, q, (size_t)(end - q), schema, (size_t)schema_len, digest, 1);
        if (rc < 0)
            goto done;
        if (rc == NOTOK || !(ps.flags & ST_INTACT) || (ps.flags & ST_SEED)) {
            ok = 0;
            break;
        }
        const unsigned char *le = ps.end;
        /* a possible secret: its line must meet the per-line secrets scan (scanned here,
         * while the line is in cache, rather than in a pass of its own over the block). Its
         * span is returned and the caller runs that scan on it: a marker is 3-5 common
         * bytes, so random text (a base64 screenshot: `xox`, `AKIA`) holds one every few
         * hundred lines, and declining its whole block sent it line by line through Python
         * (4.5x the floor on screenshots). More than MAX_SUSPECTS such lines: declined. */
        if (marker_tuple != NULL && find_markers(&ms, q, le - q, 0)) {
            if (nsus == MAX_SUSPECTS) {
                ok = 0;
                break;
            }
            sus[nsus][0] = q - data;
            sus[nsus][1] = le - data;
            nsus++;
        }
        const unsigned char *prev = q + ps.f_off[F_PREV], *hash = q + ps.f_off[F_HASH];
        const unsigned char *wall = q + ps.f_off[F_WALL], *run = q + ps.f_off[F_RUN];
        const unsigned char *prod = q + ps.f_off[F_PRODUCER], *trust = q + ps.f_off[F_TRUST];
        const unsigned char *type = q + ps.f_off[F_TYPE];
        size_t prod_len = ps.f_len[F_PRODUCER], trust_len = ps.f_len[F_TRUST];
        size_t type_len = ps.f_len[F_TYPE];
        if (!uniform_wall(wall, ps.f_len[F_WALL])) {
            ok = 0;
            break;
        }
        if (n == 0) {
            first_prev = prev;
            run_id = run;
            run_len = ps.f_len[F_RUN];
            wmin = wmax = wall;
        } else {
            if (memcmp(prev, last_hash, HEXLEN) != 0 || ps.f_len[F_RUN] != run_len ||
                memcmp(run, run_id, run_len) != 0) {
                ok = 0;
                break;
            }
            if (memcmp(wall, wmin, 24) < 0)
                wmin = wall;
            if (memcmp(wall, wmax, 24) > 0)
                wmax = wall;
        }
        last_hash = hash;
        uint16_t key = (uint16_t)ps.flags;
        int k;
        for (k = 0; k < nkeys && keys[k] != key; k++)
            ;
        if (k == nkeys) {
            if (nkeys == 64) {
                ok = 0;
                break;
            }
            keys[nkeys++] = key;
        }
        if (!distinct_add(&types, type, type_len) || !distinct_add(&minutes, wall, 16)) {
            ok = 0;
            break;
        }
        if (wstart == NULL && type_len == 9 && memcmp(type, "run_start", 9) == 0)
            wstart = wall;
        if (type_len == 7 && memcmp(type, "run_end", 7) == 0)
            wend = wall;
        long long seq = seq_value(&ps, q);
        Prod *pr = NULL;
        if (last_prod < nprod && prods[last_prod].name_len == prod_len &&
            memcmp(prods[last_prod].name, prod, prod_len) == 0) {
            pr = &prods[last_prod];
        } else {
            for (int j = 0; j < nprod; j++)
                if (prods[j].name_len == prod_len && memcmp(prods[j].name, prod, prod_len) == 0) {
                    pr = &prods[j];
                    last_prod = j;
                    break;
                }
        }
        if (pr == NULL) {
            if (nprod == MAX_PRODUCERS) {
                ok = 0;
                break;
            }
            last_prod = nprod;
            pr = &prods[nprod++];
            pr->name = prod;
            pr->name_len = prod_len;
            pr->trust = trust;
            pr->trust_len = trust_len;
            pr->count = 0;
            pr->first = n;
            pr->first_seq = seq;
            pr->first_wall = wall;
        } else {
            if (pr->trust_len != trust_len || memcmp(pr->trust, trust, trust_len) != 0 ||
                seq <= pr->last_seq || memcmp(wall, pr->last_wall, 24) < 0) {
                ok = 0;
                break;
            }
        }
        pr->count++;
        pr->last = n;
        pr->last_seq = seq;
        pr->last_wall = wall;
        n++;
        q = le + 1;
    }
    if (!ok || n == 0) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    {
        PyObject *plist = PyTuple_New(nprod);
        if (plist == NULL)
            goto done;
        for (int j = 0; j < nprod; j++) {
            Prod *pr = &prods[j];
            PyObject *t = Py_BuildValue("(NNnnnLLNN)", make_str(pr->name, pr->name_len),
                                        make_str(pr->trust, pr->trust_len), pr->count, pr->first,
                                        pr->last, pr->first_seq, pr->last_seq,
                                        make_str(pr->first_wall, 24), make_str(pr->last_wall, 24));
            if (t == NULL) {
                Py_DECREF(plist);
                goto done;
            }
            PyTuple_SET_ITEM(plist, j, t);
        }
        PyObject *klist = PyList_New(nkeys);
        if (klist == NULL) {
            Py_DECREF(plist);
            goto done;
        }
        for (int k = 0; k < nkeys; k++)
            PyList_SET_ITEM(klist, k, PyLong_FromLong(keys[k]));
        PyObject *slist = PyTuple_New(nsus);
        if (slist == NULL) {
            Py_DECREF(plist);
            Py_DECREF(klist);
            goto done;
        }
        for (int k = 0; k < nsus; k++) {
            PyObject *t = Py_BuildValue("(nn)", sus[k][0], sus[k][1]);
            if (t == NULL) {
                Py_DECREF(plist);
                Py_DECREF(klist);
                Py_DECREF(slist);
                goto done;
            }
            PyTuple_SET_ITEM(slist, k, t);
        }
        PyObject *none1 = Py_None, *none2 = Py_None;
        Py_INCREF(none1);
        Py_INCREF(none2);
        result = Py_BuildValue("(nNNNNNNNNNNNN)", n, make_str(first_prev, HEXLEN),
                               make_str(last_hash, HEXLEN), make_str(run_id, run_len), plist,
                               make_str(wmin, 24), make_str(wmax, 24),
                               wstart ? (Py_DECREF(none1), make_str(wstart, 24)) : none1,
                               wend ? (Py_DECREF(none2), make_str(wend, 24)) : none2,
                               distinct_list(&types), distinct_list(&minutes), klist, slist);
    }
done:
    PyBuffer_Release(&block);
    p_free(&ps);
    return result;
}

PyDoc_STRVAR(markers_doc,
"markers(block, markers) -> tuple\n\n"
"The members of `markers` (a tuple of bytes, each at least 2 long) found anywhere in `block`:\n"
"one pass, nibble tables of their first two bytes, then a comparison where one may start.");

/* The marker sets of the tuples `markers` was last asked with. Building a set clears and
 * fills ~15 KB of tables (the fifth and sixth bytes' 256 entries a marker): 15.4 us for the 24
 * secrets MARKERS, 1.4 us for two markers, where searching a 20 KB text takes ~3 us. The
 * secrets scan asks ~85 times a line of e_mixlong, with a few dozen tuples, most of them
 * module constants or a constant's items in a new tuple (`(needle,)`): building the set was
 * ~80 % of `markers`' time (session 42, speed). A set is kept with a reference to its tuple,
 * found again by its items' identities (a tuple whose items are the same objects, in the same
 * order: the same bytes, kept alive by the tuple held), 4 places to look from a hash of them;
 * a fifth tuple there replaces the one kept longest. The counters of the dense choice
 * (`windows`, `cand_windows`) are reset each call, so a call searches as a new set did:
 * the same markers are found. The GIL is held throughout, so no other call shares a set. */
#define SET_SLOTS 64
#define SET_WAYS 4
static struct {
    PyObject *tup;
    MarkerSet *ms;
} set_cache[SET_SLOTS];
static unsigned set_turn[SET_SLOTS / SET_WAYS];

static int same_items(PyObject *a, PyObject *b)
{
    Py_ssize_t n = PyTuple_GET_SIZE(a);
    if (PyTuple_GET_SIZE(b) != n)
        return 0;
    for (Py_ssize_t j = 0; j < n; j++)
        if (PyTuple_GET_ITEM(a, j) != PyTuple_GET_ITEM(b, j))
            return 0;
    return 1;
}

/* The set of `tup`'s markers, kept or built (NULL with an exception). */
static MarkerSet *cached_set(PyObject *tup)
{
    uint64_t h = (uint64_t)PyTuple_GET_SIZE(tup);
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(tup); j++)
        h = (h ^ (uint64_t)(uintptr_t)PyTuple_GET_ITEM(tup, j)) * 0x9E3779B97F4A7C15ull;
    unsigned row = (unsigned)(h >> 40) % (SET_SLOTS / SET_WAYS);
    for (int w = 0; w < SET_WAYS; w++) {
        int slot = row * SET_WAYS + w;
        if (set_cache[slot].tup != NULL &&
            (set_cache[slot].tup == tup || same_items(set_cache[slot].tup, tup))) {
            MarkerSet *ms = set_cache[slot].ms;
            ms->windows = ms->cand_windows = 0;
            return ms;
        }
    }
    MarkerSet *ms = PyMem_Malloc(sizeof(*ms));
    if (ms == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    if (marker_set(ms, tup) < 0) {
        PyMem_Free(ms);
        return NULL;
    }
    int slot = row * SET_WAYS + (int)(set_turn[row]++ % SET_WAYS);
    PyObject *old = set_cache[slot].tup;
    MarkerSet *old_ms = set_cache[slot].ms;
    Py_INCREF(tup);
    set_cache[slot].tup = tup;
    set_cache[slot].ms = ms;
    if (old != NULL) {
        PyMem_Free(old_ms);
        Py_DECREF(old);
    }
    return ms;
}

static PyObject *markers(PyObject *self, PyObject *args)
{
    Py_buffer block;
    PyObject *tup;
    if (!PyArg_ParseTuple(args, "y*O!", &block, &PyTuple_Type, &tup))
        return NULL;
    MarkerSet *ms = cached_set(tup);
    if (ms == NULL) {
        PyBuffer_Release(&block);
        return NULL;
    }
    uint64_t found = find_markers(ms, block.buf, block.len, 0);
    PyBuffer_Release(&block);
    Py_ssize_t count = 0;
    for (Py_ssize_t j = 0; j < ms->nm; j++)
        count += found >> j & 1;
    PyObject *out = PyTuple_New(count);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t j = 0, k = 0; j < ms->nm; j++)
        if (found >> j & 1) {
            PyObject *m = PyTuple_GET_ITEM(tup, j);
            Py_INCREF(m);
            PyTuple_SET_ITEM(out, k++, m);
        }
    return out;
}

static PyObject *float_spellings(PyObject *self, PyObject *arg)
{
    double x = PyFloat_AsDouble(arg);
    if (x == -1.0 && PyErr_Occurred())
        return NULL;
    if (!isfinite(x)) {
        PyErr_SetString(PyExc_ValueError, "not a finite float");
        return NULL;
    }
    char t[3][72];
    int len[3];
    if (spellings(x, t, len) < 0)
        return NULL;
    return Py_BuildValue("(s#s#s#)", t[0], (Py_ssize_t)len[0], t[1], (Py_ssize_t)len[1], t[2],
                         (Py_ssize_t)len[2]);
}

PyDoc_STRVAR(canonical_doc,
"canonical(line) -> bytes | None\n\n"
"The RFC 8785 form of a JSON value (any value with the envelope rules off is not offered:\n"
"this is the canonical writer of `scan` applied to one object line, `hash` kept), or None\n"
"where `scan` would decline the text. For tests.");

/* For tests: the canonical writer alone, on any object (no envelope rules, `hash` kept). */
static PyObject *canonical(PyObject *self, PyObject *args)
{
    Py_buffer text;
    if (!PyArg_ParseTuple(args, "y*", &text))
        return NULL;
    P ps;
    memset(&ps, 0, sizeof(ps));
    ps.floor = stack_floor();
    ps.s = ps.p = text.buf;
    ps.end = ps.s + text.len;
    ps.flags = ST_START;
    PyObject *result = NULL;
    int rc = parse_value(&ps, 0, ROLE_VALUE);
    if (rc == 0 && (ps.p != ps.end || sep_verdict(&ps) != 0))
        rc = NOTOK;
    if (rc == 0)
        ea_verdict(&ps);
    if (rc == 0)
        result = Py_BuildValue("(y#i)", ps.out.p, (Py_ssize_t)ps.out.len, ps.flags);
    else if (rc == NOTOK) {
        result = Py_None;
        Py_INCREF(result);
    }
    PyBuffer_Release(&text);
    p_free(&ps);
    return result;
}

/* have_* from what the CPU has and what set_simd allows. */
static void simd_paths(void)
{
    int n = cpu_simd < simd_cap ? cpu_simd : simd_cap;
    have_ssse3 = n >= 1;
    have_avx2 = n >= 2;
    have_avx512 = n >= 3;
}

/* set_simd(n): the widest SIMD paths the module may take from now on (0: none of SSSE3's,
 * 1: SSSE3, 2: AVX2, 3: AVX-512BW; never more than the CPU has), returning the previous
 * allowance. For tests: each path must give the same bytes, and a CPU with AVX-512 would
 * otherwise never run the AVX2 ones. */
static PyObject *set_simd(PyObject *self, PyObject *arg)
{
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    int was = simd_cap;
    simd_cap = n < 0 ? 0 : n > 3 ? 3 : (int)n;
    simd_paths();
    return PyLong_FromLong(was);
}

static PyObject *simd_level(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(have_avx512 ? 3 : have_avx2 ? 2 : have_ssse3 ? 1 : 0);
}

static PyObject *set_python_sha(PyObject *self, PyObject *arg)
{
    int on = PyObject_IsTrue(arg);
    if (on < 0)
        return NULL;
    force_python_sha = on;
    Py_RETURN_NONE;
}

static PyObject *sha_backend(PyObject *self, PyObject *unused)
{
    return PyUnicode_FromString(c_sha256 && !force_python_sha ? "libcrypto" : "hashlib");
}

PyDoc_STRVAR(line_cut_doc,
"line_cut(data, n) -> int\n\n"
"The offset just past the n-th `\\n` of data (n >= 1), or -1 when data holds n newlines or\n"
"fewer. streams.LineBounded asks this of every read: bytes.count walks each byte, memchr skips\n"
"a long line 32 bytes at a time (about a tenth of the cost on ~1.5 KB lines).");

static PyObject *line_cut(PyObject *self, PyObject *args)
{
    Py_buffer data;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "y*n", &data, &n))
        return NULL;
    const unsigned char *p = data.buf, *end = p + data.len;
    Py_ssize_t found = 0, cut = -1;
    while (p < end) {
        const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
        if (nl == NULL)
            break;
        p = nl + 1;
        if (++found > n)
            break;
        if (found == n)
            cut = p - (const unsigned char *)data.buf;
    }
    PyBuffer_Release(&data);
    return PyLong_FromSsize_t(found > n ? cut : -1);
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS, scan_doc},
    {"canonical", canonical, METH_VARARGS, canonical_doc},
    {"markers", markers, METH_VARARGS, markers_doc},
    {"summarise", summarise, METH_VARARGS, summarise_doc},
    {"line_cut", line_cut, METH_VARARGS, line_cut_doc},
    {"float_spellings", float_spellings, METH_O,
     "(ES6, repr, orjson) spellings of a finite float, as the scan compares them."},
    {"set_python_sha", set_python_sha, METH_O, "Use hashlib instead of libcrypto (tests)."},
    {"set_simd", set_simd, METH_O,
     "set_simd(n) -> previous: the widest SIMD paths allowed (0 none, 1 SSSE3, 2 AVX2, 3 "
     "AVX-512BW; tests)."},
    {"simd", simd_level, METH_NOARGS, "The widest SIMD paths in use (see set_simd)."},
    {"sha_backend", sha_backend, METH_NOARGS, "Which SHA-256 the scan uses."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_jcs",
                                       "RFC 8785 canonical form and chain hash of trajectory "
                                       "lines (see the comment at the top of _jcs.c).",
                                       -1, methods};

PyMODINIT_FUNC PyInit__jcs(void)
{
    PyObject *m = PyModule_Create(&moduledef);
    if (m == NULL)
        return NULL;
    init_lowhex();
#if defined(__SSE2__)
    init_brackets4();
#endif
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    cpu_simd = !__builtin_cpu_supports("ssse3") ? 0 : !__builtin_cpu_supports("avx2") ? 1
               : !(__builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl")) ? 2
               : 3;
    simd_paths();
#if defined(__SSE2__)
    have_popcnt = __builtin_cpu_supports("popcnt");
#endif
#endif
    /* hashlib loads OpenSSL's libcrypto; find its one-shot SHA256 there (never load another) */
    PyObject *hashlib = PyImport_ImportModule("hashlib");
    if (hashlib == NULL) {
        Py_DECREF(m);
        return NULL;
    }
    py_sha256 = PyObject_GetAttrString(hashlib, "sha256");
    Py_DECREF(hashlib);
    if (py_sha256 == NULL) {
        Py_DECREF(m);
        return NULL;
    }
    static const char *names[] = {"libcrypto.so.3", "libcrypto.so.1.1", "libcrypto.so", NULL};
    for (int i = 0; names[i] != NULL && !c_sha256; i++) {
        void *h = dlopen(names[i], RTLD_NOW | RTLD_NOLOAD);
        if (h == NULL)
            continue;
        c_sha_init = (sha_init_fn)dlsym(h, "SHA256_Init");
        c_sha_update = (sha_update_fn)dlsym(h, "SHA256_Update");
        c_sha_final = (sha_final_fn)dlsym(h, "SHA256_Final");
        c_sha256 = c_sha_init != NULL && c_sha_update != NULL && c_sha_final != NULL;
    }
    /* The shape of what this module returns: raise it with every change of a signature or
       of a result tuple (native.JCS_ABI says which the Python side expects). */
    PyModule_AddIntConstant(m, "ABI", 2);
    PyModule_AddIntConstant(m, "ST_OK", ST_OK);
    PyModule_AddIntConstant(m, "ST_MIN", ST_MIN);
    PyModule_AddIntConstant(m, "ST_SPACED", ST_SPACED);
    PyModule_AddIntConstant(m, "ST_EA", ST_EA);
    PyModule_AddIntConstant(m, "ST_NOWRITER", ST_NOWRITER);
    PyModule_AddIntConstant(m, "ST_SORTED_CP", ST_SORTED_CP);
    PyModule_AddIntConstant(m, "ST_SORTED_U16", ST_SORTED_U16);
    PyModule_AddIntConstant(m, "ST_FLOAT", ST_FLOAT);
    PyModule_AddIntConstant(m, "ST_ASCII", ST_ASCII);
    PyModule_AddIntConstant(m, "ST_SEED", ST_SEED);
    PyModule_AddIntConstant(m, "ST_INTACT", ST_INTACT);
    PyModule_AddIntConstant(m, "ST_MINX", ST_MINX);
    PyModule_AddIntConstant(m, "ST_F_ORJSON", ST_F_ORJSON);
    PyModule_AddIntConstant(m, "ST_F_REPR", ST_F_REPR);
    PyModule_AddIntConstant(m, "MAX_DEPTH", MAX_DEPTH);
    return m;
}
