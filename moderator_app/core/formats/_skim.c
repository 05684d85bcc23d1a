/*
 * _skim: the agent-log verifier's run of ordinary lines, at memory speed (issue 15).
 *
 * Why this exists: for each line the Python path parses the whole line with orjson,
 * serialises it again to prove it has no repeated member, then runs its per-event checks:
 * ~3.7x the floor (orjson parsing + SHA-256 of every line) on a realistic log. Most lines are
 * model requests (the conversation so far, often most of the file's bytes) and observations,
 * whose checks only need the envelope (`seq`, `at`, `elapsedMs`, `type`) and whether `data`
 * is an object: the rest only has to be valid. Here one pass over the bytes checks a line as
 * strict JSON (valid UTF-8, no repeated member, numbers orjson reads as finite) without
 * building any object, reads the envelope and applies the checks of the checker's steady
 * state (`LogChecker._event`'s inlined fast path): seq is the next one, `at` and `elapsedMs`
 * in order, within the 2 s rule, no gap. A model_response or an action also needs its own
 * checks (ids, requested actions): its `data` bytes go to a Python callback, in line order.
 *
 * This module never words a finding and never decides a verdict. It consumes lines while it
 * can vouch that the Python path would report nothing for them and would leave the state it
 * returns; at the first line it cannot vouch for, it stops, and the caller sends that line
 * through the Python path, which alone reports. It declines anything unusual rather than
 * handle it: escapes in member names, envelope strings with escapes, an `at` in any other
 * form than `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+00:00)`, elapsedMs with a sign, an exponent or
 * more than 12 integer digits, nesting beyond 64 levels, lone surrogates, invalid UTF-8, a
 * request whose data is `withheld` and holds more, the types run_start, run_end, error and
 * any unknown one. tests/verify/test_agent_log_engines.py holds it to the
 * Python path (MODERATOR_APP_NATIVE=0).
 *
 * `first_duplicate` names a line's first repeated member as the stdlib's parse would
 * (jsonline.find_duplicate_member), without building the value: tests/formats/
 * test_first_duplicate.py holds it to the stdlib.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64
#define NO (-1)

typedef struct {
    const unsigned char *p, *end;
} S;

typedef struct {
    const unsigned char *p;
    size_t n;
} Span;

/* Facts about the `data` object for the checks on a model_request. */
typedef struct {
    int withheld_true; /* a member `withheld` whose value is `true` */
    size_t members;
} DataFacts;

static int value(S *s, int depth, DataFacts *facts);

static inline void ws(S *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\r'))
        s->p++;
}

static inline int hex4(const unsigned char *p, unsigned *v)
{
    unsigned r = 0;
    for (int i = 0; i < 4; i++) {
        unsigned c = p[i], d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
            d = (c | 0x20) - 'a' + 10;
        else
            return NO;
        r = r << 4 | d;
    }
    *v = r;
    return 0;
}

/* One UTF-8 sequence starting at p (a byte >= 0x80), as Unicode's table 3-7 allows it:
 * no overlong form, no surrogate, nothing past U+10FFFF. Returns its length or NO. */
static inline int utf8_len(const unsigned char *p, const unsigned char *end)
{
    unsigned c = p[0];
    if (c >= 0xC2 && c <= 0xDF)
        return end - p >= 2 && (p[1] & 0xC0) == 0x80 ? 2 : NO;
    if (c >= 0xE0 && c <= 0xEF) {
        if (end - p < 3 || (p[2] & 0xC0) != 0x80)
            return NO;
        unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        return p[1] >= lo && p[1] <= hi ? 3 : NO;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (end - p < 4 || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80)
            return NO;
        unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        return p[1] >= lo && p[1] <= hi ? 4 : NO;
    }
    return NO;
}

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* A string from its opening quote; *out is its content (raw bytes), *escaped whether it holds
 * a backslash. Eight bytes at a time while none is special (a quote, a backslash, a control
 * character or a byte >= 0x80): base64 and plain text pass at memory speed. */
static int string(S *s, Span *out, int *escaped)
{
    const unsigned char *p = s->p + 1, *end = s->end;
    *escaped = 0;
    out->p = p;
    for (;;) {
        while (end - p >= 8) {
            uint64_t v;
            memcpy(&v, p, 8);
            uint64_t q = v ^ (ONES * '"'), b = v ^ (ONES * '\\');
            uint64_t special = ((q - ONES) & ~q) | ((b - ONES) & ~b) | ((v - ONES * 0x20) & ~v) | v;
            if (special & HIGHS)
                break;
            p += 8;
        }
        if (p >= end)
            return NO;
        unsigned c = *p;
        if (c == '"') {
            out->n = (size_t)(p - out->p);
            s->p = p + 1;
            return 0;
        }
        if (c < 0x20)
            return NO;
        if (c == '\\') {
            *escaped = 1;
            if (end - p < 2)
                return NO;
            unsigned e = p[1];
            if (e == 'u') {
                unsigned v, w;
                if (end - p < 6 || hex4(p + 2, &v) != 0)
                    return NO;
                if (v >= 0xDC00 && v <= 0xDFFF)
                    return NO; /* a lone low surrogate */
                if (v >= 0xD800 && v <= 0xDBFF) {
                    if (end - p < 12 || p[6] != '\\' || p[7] != 'u' || hex4(p + 8, &w) != 0
                        || w < 0xDC00 || w > 0xDFFF)
                        return NO;
                    p += 12;
                } else {
                    p += 6;
                }
            } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n'
                       || e == 'r' || e == 't') {
                p += 2;
            } else {
                return NO;
            }
        } else if (c >= 0x80) {
            int k = utf8_len(p, end);
            if (k == NO)
                return NO;
            p += k;
        } else {
            p++;
        }
    }
}

static inline int is_digit(unsigned c) { return c >= '0' && c <= '9'; }

/* A number, by JSON's grammar, that orjson reads as a finite value: at most 300 integer
 * digits, and an exponent that keeps it below 1e300 (larger ones may overflow: declined). */
static int number(S *s, int *is_float)
{
    const unsigned char *p = s->p, *end = s->end;
    if (p < end && *p == '-')
        p++;
    if (p >= end || !is_digit(*p))
        return NO;
    const unsigned char *d0 = p;
    if (*p == '0')
        p++;
    else
        while (p < end && is_digit(*p))
            p++;
    long int_digits = p - d0;
    *is_float = 0;
    if (p < end && *p == '.') {
        p++;
        if (p >= end || !is_digit(*p))
            return NO;
        while (p < end && is_digit(*p))
            p++;
        *is_float = 1;
    }
    long exp = 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        int neg = 0;
        if (p < end && (*p == '+' || *p == '-'))
            neg = *p++ == '-';
        if (p >= end || !is_digit(*p))
            return NO;
        while (p < end && is_digit(*p)) {
            if (exp < 100000)
                exp = exp * 10 + (*p - '0');
            p++;
        }
        if (neg)
            exp = -exp;
        *is_float = 1;
    }
    if (int_digits > 300 || int_digits + exp > 300 || exp < -300)
        return NO;
    s->p = p;
    return 0;
}

static int literal(S *s, const char *word, size_t n)
{
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
        return NO;
    s->p += n;
    return 0;
}

/* The member names of one object, to find a repeated one. Names are compared as raw bytes,
 * which is exact since names with escapes are declined. The first INLINE_KEYS are compared
 * one by one as they come; past that they are kept on the heap and sorted once at the end
 * (n log n: an object of 100,000 members costs no more than its bytes suggest). */
#define INLINE_KEYS 16
typedef struct {
    Span in[INLINE_KEYS];
    Span *heap;
    size_t n, cap;
} Keys;

static int span_cmp(const void *a, const void *b)
{
    const Span *x = a, *y = b;
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    return memcmp(x->p, y->p, x->n);
}

static int keys_add(Keys *ks, Span k)
{
    if (ks->n < INLINE_KEYS) {
        for (size_t i = 0; i < ks->n; i++)
            if (ks->in[i].n == k.n && memcmp(ks->in[i].p, k.p, k.n) == 0)
                return NO;
        ks->in[ks->n++] = k;
        return 0;
    }
    size_t h = ks->n - INLINE_KEYS;
    if (h == ks->cap) {
        size_t cap = ks->cap ? ks->cap * 2 : 64;
        Span *p = realloc(ks->heap, cap * sizeof *p);
        if (p == NULL)
            return NO; /* declined: the Python path decides (and reports memory) */
        ks->heap = p;
        ks->cap = cap;
    }
    ks->heap[h] = k;
    ks->n++;
    return 0;
}

/* At the object's end: no repeated name among all of them. Frees the heap part. */
static int keys_done(Keys *ks, int ok)
{
    if (ks->heap == NULL)
        return ok;
    size_t h = ks->n - INLINE_KEYS;
    if (ok == 0) {
        Span *all = realloc(ks->heap, (h + INLINE_KEYS) * sizeof *all);
        if (all == NULL) {
            ok = NO;
        } else {
            ks->heap = all;
            memcpy(all + h, ks->in, sizeof ks->in);
            qsort(all, h + INLINE_KEYS, sizeof *all, span_cmp);
            for (size_t i = 1; i < h + INLINE_KEYS && ok == 0; i++)
                if (span_cmp(&all[i - 1], &all[i]) == 0)
                    ok = NO;
        }
    }
    free(ks->heap);
    ks->heap = NULL;
    return ok;
}

/* An object's members, each name unescaped and unique. `facts`, when not NULL, learns what
 * the model_request checks need (`withheld` and the number of members). */
static int object(S *s, int depth, DataFacts *facts)
{
    Keys ks;
    ks.n = ks.cap = 0;
    ks.heap = NULL;
    int ok = NO;
    s->p++;
    ws(s);
    if (s->p < s->end && *s->p == '}') {
        s->p++;
        return 0;
    }
    for (;;) {
        if (s->p >= s->end || *s->p != '"')
            break;
        Span k;
        int esc;
        if (string(s, &k, &esc) != 0 || esc || keys_add(&ks, k) != 0)
            break;
        ws(s);
        if (s->p >= s->end || *s->p != ':')
            break;
        s->p++;
        ws(s);
        const unsigned char *v0 = s->p;
        if (value(s, depth + 1, NULL) != 0)
            break;
        if (facts != NULL && k.n == 8 && memcmp(k.p, "withheld", 8) == 0 && s->p - v0 == 4
            && memcmp(v0, "true", 4) == 0)
            facts->withheld_true = 1;
        ws(s);
        if (s->p >= s->end)
            break;
        if (*s->p == ',') {
            s->p++;
            ws(s);
            continue;
        }
        if (*s->p == '}') {
            s->p++;
            ok = 0;
        }
        break;
    }
    if (facts != NULL)
        facts->members = ks.n;
    return keys_done(&ks, ok);
}

static int array(S *s, int depth)
{
    s->p++;
    ws(s);
    if (s->p < s->end && *s->p == ']') {
        s->p++;
        return 0;
    }
    for (;;) {
        if (value(s, depth + 1, NULL) != 0)
            return NO;
        ws(s);
        if (s->p >= s->end)
            return NO;
        if (*s->p == ',') {
            s->p++;
            ws(s);
            continue;
        }
        if (*s->p == ']') {
            s->p++;
            return 0;
        }
        return NO;
    }
}

static int value(S *s, int depth, DataFacts *facts)
{
    if (depth > MAX_DEPTH || s->p >= s->end)
        return NO;
    Span sp;
    int esc, fl;
    switch (*s->p) {
    case '{':
        return object(s, depth, facts);
    case '[':
        return array(s, depth);
    case '"':
        return string(s, &sp, &esc);
    case 't':
        return literal(s, "true", 4);
    case 'f':
        return literal(s, "false", 5);
    case 'n':
        return literal(s, "null", 4);
    default:
        return number(s, &fl);
    }
}

#include "_skim_table.h"
#include "_skim_checks.h"

/* ------------------------------------------------------------------ the envelope */

enum { E_SEQ, E_AT, E_EL, E_TYPE, E_DATA, E_COUNT };
static const char *ENVELOPE[E_COUNT] = {"seq", "at", "elapsedMs", "type", "data"};
enum { T_REQUEST = 1, T_OBSERVATION, T_RESPONSE, T_ACTION };

typedef struct {
    Span v[E_COUNT];   /* each member's value, as bytes */
    DataFacts data;    /* what a model_request's checks need of its data */
    int type;          /* T_*: the types of the steady state; any other is declined */
} Envelope;

static int type_code(Span t)
{
    if (t.n == 13 && memcmp(t.p, "model_request", 13) == 0)
        return T_REQUEST;
    if (t.n == 11 && memcmp(t.p, "observation", 11) == 0)
        return T_OBSERVATION;
    if (t.n == 14 && memcmp(t.p, "model_response", 14) == 0)
        return T_RESPONSE;
    if (t.n == 6 && memcmp(t.p, "action", 6) == 0)
        return T_ACTION;
    return 0;
}

/* The whole line as one object; the envelope members' values are kept. */
static int line_object(const unsigned char *line, size_t len, Envelope *env)
{
    S s = {line, line + len};
    Keys ks;
    ks.n = ks.cap = 0;
    ks.heap = NULL;
    int ok = NO;
    memset(env, 0, sizeof *env);
    s.p++;
    ws(&s);
    for (;;) {
        if (s.p >= s.end || *s.p != '"')
            break;
        Span k;
        int esc;
        if (string(&s, &k, &esc) != 0 || esc || keys_add(&ks, k) != 0)
            break;
        int which = -1;
        for (int i = 0; i < E_COUNT; i++)
            if (strlen(ENVELOPE[i]) == k.n && memcmp(ENVELOPE[i], k.p, k.n) == 0)
                which = i;
        ws(&s);
        if (s.p >= s.end || *s.p != ':')
            break;
        s.p++;
        ws(&s);
        const unsigned char *v0 = s.p;
        if (which == E_TYPE) {
            /* Decide early: a line of another type is declined before its data is read. */
            Span t;
            if (s.p >= s.end || *s.p != '"' || string(&s, &t, &esc) != 0 || esc)
                break;
            env->type = type_code(t);
            if (env->type == 0)
                break;
        } else if (value(&s, 1, which == E_DATA ? &env->data : NULL) != 0) {
            break;
        }
        if (which >= 0) {
            env->v[which].p = v0;
            env->v[which].n = (size_t)(s.p - v0);
        }
        ws(&s);
        if (s.p >= s.end)
            break;
        if (*s.p == ',') {
            s.p++;
            ws(&s);
            continue;
        }
        if (*s.p == '}' && s.p + 1 == s.end)
            ok = 0;
        break;
    }
    return keys_done(&ks, ok);
}

/* A non-negative integer of 1..max_digits digits, no sign, no leading zero. */
static int plain_int(Span v, int max_digits, long long *out)
{
    if (v.n == 0 || v.n > (size_t)max_digits || (v.p[0] == '0' && v.n > 1))
        return NO;
    long long r = 0;
    for (size_t i = 0; i < v.n; i++) {
        if (!is_digit(v.p[i]))
            return NO;
        r = r * 10 + (v.p[i] - '0');
    }
    *out = r;
    return 0;
}

/* `elapsedMs`: a plain integer of at most 12 digits (a Python int) or digits.digits of at
 * most 40 characters (a float: Python's own reader, locale-free, and orjson both round
 * correctly, so they read the same double; Python scaffolds write 17 significant digits).
 * Anything else declined. */
static int elapsed(Span v, double *el, long long *el_int, int *is_int)
{
    const unsigned char *dot = memchr(v.p, '.', v.n);
    if (dot == NULL) {
        if (plain_int(v, 12, el_int) != 0)
            return NO;
        *is_int = 1;
        *el = (double)*el_int;
        return 0;
    }
    Span ip = {v.p, (size_t)(dot - v.p)}, fp = {dot + 1, v.n - ip.n - 1};
    long long tmp;
    if (plain_int(ip, 12, &tmp) != 0 || fp.n == 0 || v.n > 40)
        return NO;
    for (size_t i = 0; i < fp.n; i++)
        if (!is_digit(fp.p[i]))
            return NO;
    char buf[48];
    memcpy(buf, v.p, v.n);
    buf[v.n] = 0;
    *el = PyOS_string_to_double(buf, NULL, NULL);
    if (*el == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return NO;
    }
    *el_int = 0;
    *is_int = 0;
    return 0;
}

static inline int two(const unsigned char *p)
{
    return is_digit(p[0]) && is_digit(p[1]) ? (p[0] - '0') * 10 + (p[1] - '0') : -1;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; H. Hinnant's days_from_civil). */
static long long days_from_civil(long long y, unsigned m, unsigned d)
{
    y -= m <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (long long)doe - 719468;
}

/* `at` as `"YYYY-MM-DDTHH:MM:SS[.fraction](Z|+00:00)"` (the quotes included, no escape; a
 * fraction of 1 to 9 digits), a date that datetime accepts: microseconds since the epoch, as
 * timestamps.parse_at gives them (digits past the sixth dropped). */
static int at_us(Span v, long long *out)
{
    if (v.n < 22 || v.p[0] != '"' || v.p[v.n - 1] != '"')
        return NO;
    const unsigned char *p = v.p + 1, *end = v.p + v.n - 1;
    if (p[4] != '-' || p[7] != '-' || p[10] != 'T' || p[13] != ':' || p[16] != ':')
        return NO;
    int y1 = two(p), y2 = two(p + 2), mo = two(p + 5), d = two(p + 8), h = two(p + 11),
        mi = two(p + 14), se = two(p + 17);
    if (y1 < 0 || y2 < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59
        || se < 0 || se > 59)
        return NO;
    int y = y1 * 100 + y2;
    static const int MDAYS[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (y < 1 || d > MDAYS[mo - 1] + (mo == 2 && leap))
        return NO;
    const unsigned char *q = p + 19;
    long long us = 0;
    if (q < end && *q == '.') {
        int k = 0;
        for (q++; q < end && is_digit(*q); q++, k++)
            if (k < 6)
                us = us * 10 + (*q - '0');
        if (k < 1 || k > 9)
            return NO;
        for (; k < 6; k++)
            us *= 10;
    }
    if (!((end - q == 1 && *q == 'Z') || (end - q == 6 && memcmp(q, "+00:00", 6) == 0)))
        return NO;
    long long secs = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400LL + h * 3600LL
                     + mi * 60LL + se;
    *out = secs * 1000000LL + us;
    return 0;
}

PyDoc_STRVAR(skim_doc,
"skim(data, start, expected_seq, prev_at, prev_el, good_el, base_at, base_el, gap_ms,\n"
"     max_line, req_el, on_event, responses=None, delay_ms=0, base_line=0, model=None,\n"
"     min_latency_ms=0, crlf_ok=False)\n"
"-> (end, count, last_seq, last_at, last_el, req_el, last_type, actions, responses)\n\n"
"Consume the lines of data[start:] (each ended by a newline) whose envelope the agent-log\n"
"checker's steady state would pass without a finding; stop at the first it cannot vouch\n"
"for. Requests and observations need nothing more. For a model_response or an action it\n"
"calls on_event(k, type, data_bytes, el, req_el) in line order (k: the line's rank in this\n"
"run, from 1; req_el: the float elapsedMs of the request it answers, or None), which does\n"
"that type's checks, except for the responses and actions of plain shape whose checks\n"
"pass, which are checked here against `responses` (a Responses: the line numbers from\n"
"base_line, `model` the run_start's as UTF-8 or None) and counted. Lines may end with\n"
"CR LF when crlf_ok (the checker has reported it). `end` is where\n"
"the unconsumed rest begins; last_el an int or a float as orjson reads it; req_el the\n"
"request time pending after the run; last_type a T_* code.");

static PyObject *skim(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer buf;
    Py_ssize_t start, max_line;
    long long expected, prev_at, base_at;
    double prev_el, good_el, base_el, gap_ms;
    PyObject *req_in, *on_event, *table = Py_None;
    double delay_ms = 0;
    Py_ssize_t base_line = 0;
    ResponseRules rules = {NULL, 0, 0};
    Py_buffer model = {0};
    int crlf_ok = 0;
    if (!PyArg_ParseTuple(args, "y*nLLddLddnOO|Odnz*dp", &buf, &start, &expected, &prev_at,
                          &prev_el, &good_el, &base_at, &base_el, &gap_ms, &max_line, &req_in,
                          &on_event, &table, &delay_ms, &base_line, &model,
                          &rules.min_latency_ms, &crlf_ok))
        return NULL;
    if (model.buf != NULL) {
        rules.model = model.buf;
        rules.model_n = (size_t)model.len;
    }
    Responses *R = NULL;
    if (table != Py_None) {
        if (!PyObject_TypeCheck(table, &ResponsesType)) {
            PyBuffer_Release(&buf);
            PyBuffer_Release(&model);
            PyErr_SetString(PyExc_TypeError, "responses: a _skim.Responses or None");
            return NULL;
        }
        R = (Responses *)table;
    }
    int have_req = req_in != Py_None;
    double req_el = have_req ? PyFloat_AsDouble(req_in) : 0;
    if (have_req && req_el == -1.0 && PyErr_Occurred()) {
        PyBuffer_Release(&buf);
        PyBuffer_Release(&model);
        return NULL;
    }
    const unsigned char *data = buf.buf;
    Py_ssize_t len = buf.len, pos = start < 0 ? 0 : start;
    Py_ssize_t count = 0, acts = 0, resps = 0;
    int r = 0;
    long long last_at = prev_at, last_el_int = 0;
    double last_el = prev_el;
    int last_is_int = 0, last_type = 0;
    while (pos < len) {
        const unsigned char *line = data + pos;
        const unsigned char *nl = memchr(line, '\n', (size_t)(len - pos));
        if (nl == NULL)
            break;
        size_t n = (size_t)(nl - line);
        if ((Py_ssize_t)n > max_line)
            break;
        if (crlf_ok && n > 0 && line[n - 1] == '\r')
            n--; /* the checker reported CR LF once already, and ignores the CR */
        if (n < 2 || line[0] != '{' || line[n - 1] != '}')
            break;
        Envelope env;
        if (line_object(line, n, &env) != 0)
            break;
        Span *v = env.v;
        if (v[E_SEQ].p == NULL || v[E_AT].p == NULL || v[E_EL].p == NULL
            || v[E_TYPE].p == NULL || v[E_DATA].p == NULL || v[E_DATA].p[0] != '{')
            break;
        if (env.type == T_REQUEST && env.data.withheld_true && env.data.members > 1)
            break; /* log.withheld_leak */
        long long seq, at;
        double el;
        long long el_int;
        int is_int;
        if (plain_int(v[E_SEQ], 18, &seq) != 0 || seq != expected || at_us(v[E_AT], &at) != 0
            || elapsed(v[E_EL], &el, &el_int, &is_int) != 0)
            break;
        /* LogChecker._event's steady state: in order, within the 2 s rule, no gap. */
        if (at < last_at || el < last_el)
            break;
        double drift = (is_int ? (double)(el_int * 1000) : el * 1000.0)
                       - ((double)(at - base_at) + base_el * 1000.0);
        if (!(drift >= -2000000.0 && drift <= 2000000.0))
            break;
        if (el - good_el > gap_ms)
            break;
        if (env.type == T_RESPONSE && R != NULL && resp_full(R))
            break; /* log.too_many_responses: the Python path words it and stops */
        count++;
        if (env.type == T_ACTION && R != NULL && action_in_c(R, v[E_DATA], el, delay_ms)) {
            acts++;
        } else if (env.type == T_RESPONSE && R != NULL
                   && (r = response_in_c(R, v[E_DATA], el, have_req, req_el, &rules,
                                         (long long)(base_line + count))) != 0) {
            if (r < 0) {
                PyBuffer_Release(&buf);
                PyBuffer_Release(&model);
                return NULL;
            }
            resps++;
            have_req = 0;
        } else if (env.type == T_RESPONSE || env.type == T_ACTION) {
            PyObject *got = PyObject_CallFunction(
                on_event, "niy#dN", count, env.type, (const char *)v[E_DATA].p,
                (Py_ssize_t)v[E_DATA].n, el, have_req && env.type == T_RESPONSE
                ? PyFloat_FromDouble(req_el) : (Py_INCREF(Py_None), Py_None));
            if (got == NULL) {
                PyBuffer_Release(&buf);
                PyBuffer_Release(&model);
                return NULL;
            }
            Py_DECREF(got);
            if (env.type == T_RESPONSE)
                have_req = 0; /* a response consumes the pending request */
        } else if (env.type == T_REQUEST) {
            have_req = 1;
            req_el = el;
        }
        expected = seq + 1;
        last_at = at;
        last_el = good_el = el;
        last_el_int = el_int;
        last_is_int = is_int;
        last_type = env.type;
        pos = (Py_ssize_t)(nl - data) + 1;
    }
    PyBuffer_Release(&buf);
    PyBuffer_Release(&model);
    if (count == 0)
        return Py_BuildValue("nn", pos, count);
    PyObject *el_obj = last_is_int ? PyLong_FromLongLong(last_el_int) : PyFloat_FromDouble(last_el);
    if (el_obj == NULL)
        return NULL;
    PyObject *req = have_req ? PyFloat_FromDouble(req_el) : (Py_INCREF(Py_None), Py_None);
    if (req == NULL) {
        Py_DECREF(el_obj);
        return NULL;
    }
    return Py_BuildValue("nnLLNNinn", pos, count, expected - 1, last_at, el_obj, req, last_type,
                         acts, resps);
}

/* ------------------------------------------------------------------ repeated members */

/* The first repeated member name in a valid JSON text, in the order the stdlib's
 * `json.loads(object_pairs_hook=...)` finds it (jsonline.find_duplicate_member): objects are
 * judged when they close (an inner object before the one holding it), and within one object
 * the name whose second occurrence comes first. Without building the parsed value: a line of
 * a million members costs its bytes, not ~900 MB of pairs and dicts. */
typedef struct {
    const unsigned char *dup; /* the repeated name found, or NULL */
    size_t dup_n;
} Dup;

static int span_pos_cmp(const void *a, const void *b)
{
    int c = span_cmp(a, b);
    if (c != 0)
        return c;
    const Span *x = a, *y = b;
    return x->p < y->p ? -1 : x->p > y->p;
}

static int dup_value(S *s, int depth, Dup *d);

static int dup_object(S *s, int depth, Dup *d)
{
    Span in[INLINE_KEYS];
    Span *all = NULL;
    size_t n = 0, cap = 0;
    const unsigned char *first = NULL; /* the earliest second occurrence so far (inline) */
    size_t first_n = 0;
    int ok = NO;
    s->p++;
    ws(s);
    if (s->p < s->end && *s->p == '}') {
        s->p++;
        return 0;
    }
    for (;;) {
        if (s->p >= s->end || *s->p != '"')
            break;
        Span k;
        int esc;
        if (string(s, &k, &esc) != 0 || esc)
            break;
        if (n < INLINE_KEYS) {
            for (size_t i = 0; i < n && first == NULL; i++)
                if (in[i].n == k.n && memcmp(in[i].p, k.p, k.n) == 0) {
                    first = k.p;
                    first_n = k.n;
                }
            in[n] = k;
        } else {
            if (n - INLINE_KEYS == cap) {
                size_t c2 = cap ? cap * 2 : 64;
                Span *q = realloc(all, (c2 + INLINE_KEYS) * sizeof *q);
                if (q == NULL)
                    break;
                all = q;
                cap = c2;
            }
            all[n - INLINE_KEYS] = k;
        }
        n++;
        ws(s);
        if (s->p >= s->end || *s->p != ':')
            break;
        s->p++;
        ws(s);
        if (dup_value(s, depth + 1, d) != 0)
            break;
        if (d->dup != NULL) { /* an inner object closed first with a repeated name */
            ok = 0;
            break;
        }
        ws(s);
        if (s->p >= s->end)
            break;
        if (*s->p == ',') {
            s->p++;
            ws(s);
            continue;
        }
        if (*s->p == '}') {
            s->p++;
            ok = 0;
            if (n > INLINE_KEYS) {
                size_t h = n - INLINE_KEYS;
                memcpy(all + h, in, sizeof in);
                qsort(all, n, sizeof *all, span_pos_cmp);
                first = NULL;
                for (size_t i = 1; i < n; i++)
                    if (span_cmp(&all[i - 1], &all[i]) == 0
                        && (i < 2 || span_cmp(&all[i - 2], &all[i]) != 0)
                        && (first == NULL || all[i].p < first)) {
                        first = all[i].p; /* the group's second occurrence */
                        first_n = all[i].n;
                    }
            }
            if (first != NULL) {
                d->dup = first;
                d->dup_n = first_n;
            }
        }
        break;
    }
    free(all);
    return ok;
}

static int dup_array(S *s, int depth, Dup *d)
{
    s->p++;
    ws(s);
    if (s->p < s->end && *s->p == ']') {
        s->p++;
        return 0;
    }
    for (;;) {
        if (dup_value(s, depth + 1, d) != 0)
            return NO;
        if (d->dup != NULL)
            return 0;
        ws(s);
        if (s->p >= s->end)
            return NO;
        if (*s->p == ',') {
            s->p++;
            ws(s);
            continue;
        }
        if (*s->p == ']') {
            s->p++;
            return 0;
        }
        return NO;
    }
}

static int dup_value(S *s, int depth, Dup *d)
{
    if (depth > MAX_DEPTH || s->p >= s->end)
        return NO;
    if (*s->p == '{')
        return dup_object(s, depth, d);
    if (*s->p == '[')
        return dup_array(s, depth, d);
    return value(s, depth, NULL);
}

PyDoc_STRVAR(first_duplicate_doc,
"first_duplicate(text) -> str | None | False\n\n"
"The first repeated member name of a valid JSON text in the stdlib's order (objects as they\n"
"close; within one, the earliest second occurrence), None when there is none, False when\n"
"this reader cannot tell (escapes in a member name, nesting past 64 levels, anything\n"
"unusual): then the caller asks the stdlib.");

static PyObject *first_duplicate(PyObject *self, PyObject *arg)
{
    (void)self;
    Py_buffer buf;
    if (PyObject_GetBuffer(arg, &buf, PyBUF_SIMPLE) != 0)
        return NULL;
    S s = {buf.buf, (const unsigned char *)buf.buf + buf.len};
    Dup d = {NULL, 0};
    ws(&s);
    int ok = dup_value(&s, 0, &d);
    if (ok == 0 && d.dup == NULL) {
        ws(&s);
        if (s.p != s.end)
            ok = NO;
    }
    PyObject *r;
    if (ok != 0)
        r = Py_NewRef(Py_False);
    else if (d.dup == NULL)
        r = Py_NewRef(Py_None);
    else
        r = PyUnicode_DecodeUTF8((const char *)d.dup, (Py_ssize_t)d.dup_n, "strict");
    PyBuffer_Release(&buf);
    return r;
}

static PyMethodDef methods[] = {
    {"skim", skim, METH_VARARGS, skim_doc},
    {"first_duplicate", first_duplicate, METH_O, first_duplicate_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_skim",
                                       "The agent-log verifier's run of ordinary lines in C.",
                                       -1, methods};

PyMODINIT_FUNC PyInit__skim(void)
{
    if (PyType_Ready(&ResponsesType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (m == NULL)
        return NULL;
    if (PyModule_AddObjectRef(m, "Responses", (PyObject *)&ResponsesType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
