/*
 * The agent-log checker's per-response state, compact (issue 15, "flat memory"); included by
 * _skim.c (one extension module: skim's C run of actions reads it without a Python call).
 *
 * What must be kept, and why it grows: an id must be unique in the whole log, so every id
 * seen must be remembered (telling a stream's elements apart exactly needs memory that grows
 * with the number of elements), and an action may name any earlier response, whose line
 * (for the messages), time (log.action_late) and requested actions (which ran, how often)
 * must still be at hand. What is kept is the least that answers those questions:
 *
 * - per response: a 128-bit keyed SipHash of its id (not the id: a hostile 10 MB id costs
 *   16 bytes, not 10 MB), its line, time, first slot and slot count: 44 bytes, plus 4 bytes
 *   per hash-table slot (load <= 0.7);
 * - per requested action: a 64-bit keyed SipHash of the canonical `[name, args]` and one
 *   byte saying whether it ran: 9 bytes.
 *
 * Exactness: the key is random per process (os.urandom), so no submitter can aim at a
 * collision, and two distinct ids share a 128-bit hash with a probability below 1e-25 in a
 * log of ten million responses. An action is compared only with its own response's few
 * requested actions, so 64 bits there are the same margin (2^-64 per comparison).
 * The pure-Python engine keeps exact ids and blake2b digests (actions.PyResponses); the two
 * engines' reports are the same (tests/verify/test_agent_log_engines.py).
 */

/* ------------------------------------------------------------------ SipHash-2-4 */
/* J.-P. Aumasson and D. J. Bernstein's reference algorithm, 64- or 128-bit output. */
#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                                                             \
    do {                                                                                     \
        v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32);                            \
        v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;                                               \
        v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;                                               \
        v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32);                            \
    } while (0)

static inline uint64_t le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static inline void put_le64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++, v >>= 8)
        p[i] = (unsigned char)v;
}

static void siphash(const unsigned char *in, size_t n, uint64_t k0, uint64_t k1,
                    unsigned char *out, int outlen)
{
    uint64_t v0 = 0x736f6d6570736575ULL ^ k0, v1 = 0x646f72616e646f6dULL ^ k1,
             v2 = 0x6c7967656e657261ULL ^ k0, v3 = 0x7465646279746573ULL ^ k1;
    if (outlen == 16)
        v1 ^= 0xee;
    const unsigned char *end = in + (n & ~(size_t)7);
    for (; in != end; in += 8) {
        uint64_t m = le64(in);
        v3 ^= m;
        SIPROUND;
        SIPROUND;
        v0 ^= m;
    }
    uint64_t b = (uint64_t)n << 56;
    for (size_t i = 0; i < (n & 7); i++)
        b |= (uint64_t)in[i] << (8 * i);
    v3 ^= b;
    SIPROUND;
    SIPROUND;
    v0 ^= b;
    v2 ^= outlen == 16 ? 0xee : 0xff;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    put_le64(out, v0 ^ v1 ^ v2 ^ v3);
    if (outlen == 8)
        return;
    v1 ^= 0xdd;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    put_le64(out + 8, v0 ^ v1 ^ v2 ^ v3);
}

/* ------------------------------------------------------------------ the table */

#define ID_HASH 16
#define ACT_HASH 8
enum { C_OK, C_REPEAT, C_NONE, C_UNLISTED }; /* consume()'s verdicts */

typedef struct {
    PyObject_HEAD
    uint64_t k0, k1;
    uint32_t *slots; /* open addressing, linear probing: ordinal + 1, 0 when free */
    size_t cap;      /* a power of two */
    size_t n, ncap;  /* responses, and room in the per-response arrays */
    unsigned char *fp; /* n x ID_HASH */
    int64_t *line, *first;
    double *el;
    int32_t *nslots; /* -1: the response lists no actions */
    unsigned char *dig, *used; /* per requested action: ACT_HASH bytes, whether it ran */
    size_t nd, dcap;
    /* A response listing more than INDEX_MIN actions is looked up through `ord`, its slots
     * sorted by (digest, slot), built at its first consume (`indexed`, per response): a
     * scan of its list per action line made one response of N actions answered by N lines
     * N^2 (200,000: 14.8 s CPU, QA session 14 G10). 4 bytes per slot, allocated at need. */
    uint32_t *ord;
    size_t ocap;
    unsigned char *indexed;
    size_t max_n, max_slots; /* the bound: full() past either (0: none) */
} Responses;

/* At the bound (log.too_many_responses): the caller takes no more responses. */
static inline int resp_full(const Responses *self)
{
    return (self->max_n && self->n >= self->max_n)
           || (self->max_slots && self->nd >= self->max_slots);
}

static int grow(void **p, size_t want, size_t size)
{
    void *q = PyMem_RawRealloc(*p, want * size);
    if (q == NULL)
        return NO;
    *p = q;
    return 0;
}

static int resp_init(Responses *self, PyObject *args, PyObject *kw)
{
    Py_buffer key;
    Py_ssize_t max_n = 0, max_slots = 0;
    (void)kw;
    if (!PyArg_ParseTuple(args, "y*|nn", &key, &max_n, &max_slots))
        return -1;
    self->max_n = max_n > 0 ? (size_t)max_n : 0;
    self->max_slots = max_slots > 0 ? (size_t)max_slots : 0;
    if (key.len != 16) {
        PyBuffer_Release(&key);
        PyErr_SetString(PyExc_ValueError, "the key is 16 bytes");
        return -1;
    }
    self->k0 = le64(key.buf);
    self->k1 = le64((unsigned char *)key.buf + 8);
    PyBuffer_Release(&key);
    return 0;
}

static void resp_dealloc(Responses *self)
{
    PyMem_RawFree(self->slots);
    PyMem_RawFree(self->fp);
    PyMem_RawFree(self->line);
    PyMem_RawFree(self->first);
    PyMem_RawFree(self->el);
    PyMem_RawFree(self->nslots);
    PyMem_RawFree(self->dig);
    PyMem_RawFree(self->used);
    PyMem_RawFree(self->ord);
    PyMem_RawFree(self->indexed);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The ordinal of the response whose id hashes to h, or -1. */
static Py_ssize_t resp_find_hash(const Responses *self, const unsigned char *h)
{
    if (self->cap == 0)
        return -1;
    size_t mask = self->cap - 1;
    for (size_t i = le64(h) & mask;; i = (i + 1) & mask) {
        uint32_t s = self->slots[i];
        if (s == 0)
            return -1;
        if (memcmp(self->fp + (size_t)(s - 1) * ID_HASH, h, ID_HASH) == 0)
            return (Py_ssize_t)(s - 1);
    }
}

static void resp_place(Responses *self, size_t ordinal)
{
    size_t mask = self->cap - 1;
    size_t i = le64(self->fp + ordinal * ID_HASH) & mask;
    while (self->slots[i] != 0)
        i = (i + 1) & mask;
    self->slots[i] = (uint32_t)(ordinal + 1);
}

/* An id (str) as its hash; ids holding lone surrogates are hashed as surrogatepass UTF-8,
 * which no valid string encodes to: distinct ids stay distinct. */
static int id_hash(const Responses *self, PyObject *id, unsigned char *h)
{
    Py_ssize_t n;
    const char *p = PyUnicode_AsUTF8AndSize(id, &n);
    if (p != NULL) {
        siphash((const unsigned char *)p, (size_t)n, self->k0, self->k1, h, ID_HASH);
        return 0;
    }
    if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
        return NO;
    PyErr_Clear();
    PyObject *b = PyUnicode_AsEncodedString(id, "utf-8", "surrogatepass");
    if (b == NULL)
        return NO;
    siphash((const unsigned char *)PyBytes_AS_STRING(b), (size_t)PyBytes_GET_SIZE(b),
            self->k0, self->k1, h, ID_HASH);
    Py_DECREF(b);
    return 0;
}

static PyObject *resp_find(Responses *self, PyObject *id)
{
    unsigned char h[ID_HASH];
    if (!PyUnicode_Check(id)) {
        PyErr_SetString(PyExc_TypeError, "an id is a str");
        return NULL;
    }
    if (id_hash(self, id, h) != 0)
        return NULL;
    return PyLong_FromSsize_t(resp_find_hash(self, h));
}

/* Response `h` (its id's hash) at `line`, asking for `nd` actions (their digests at dp; nd < 0:
 * it lists none). 0, or NO with MemoryError set. */
static int resp_append(Responses *self, const unsigned char *h, long long line, double el,
                       const unsigned char *dp, Py_ssize_t nd)
{
    if (self->n >= 0xFFFFFFF0u || nd > INT32_MAX) {
        PyErr_NoMemory();
        return NO;
    }
    if (self->n == self->ncap) {
        size_t c = self->ncap ? self->ncap * 2 : 1024;
        if (grow((void **)&self->fp, c, ID_HASH) || grow((void **)&self->line, c, 8)
            || grow((void **)&self->first, c, 8) || grow((void **)&self->el, c, 8)
            || grow((void **)&self->nslots, c, 4) || grow((void **)&self->indexed, c, 1)) {
            PyErr_NoMemory();
            return NO;
        }
        self->ncap = c;
    }
    if ((self->n + 1) * 10 > self->cap * 7) {
        size_t c = self->cap ? self->cap * 2 : 2048;
        uint32_t *s = PyMem_RawCalloc(c, sizeof *s);
        if (s == NULL) {
            PyErr_NoMemory();
            return NO;
        }
        PyMem_RawFree(self->slots);
        self->slots = s;
        self->cap = c;
        for (size_t k = 0; k < self->n; k++)
            resp_place(self, k);
    }
    if (nd > 0 && self->nd + (size_t)nd > self->dcap) {
        size_t c = self->dcap ? self->dcap : 4096;
        while (c < self->nd + (size_t)nd)
            c *= 2;
        if (grow((void **)&self->dig, c, ACT_HASH) || grow((void **)&self->used, c, 1)) {
            PyErr_NoMemory();
            return NO;
        }
        self->dcap = c;
    }
    size_t k = self->n;
    memcpy(self->fp + k * ID_HASH, h, ID_HASH);
    self->line[k] = line;
    self->el[k] = el;
    self->first[k] = (int64_t)self->nd;
    self->nslots[k] = nd < 0 ? -1 : (int32_t)nd;
    self->indexed[k] = 0;
    if (nd > 0) {
        memcpy(self->dig + self->nd * ACT_HASH, dp, (size_t)nd * ACT_HASH);
        memset(self->used + self->nd, 0, (size_t)nd);
        self->nd += (size_t)nd;
    }
    self->n++;
    resp_place(self, k);
    return 0;
}

static PyObject *resp_add(Responses *self, PyObject *args)
{
    PyObject *id, *digests;
    long long line;
    double el;
    unsigned char h[ID_HASH];
    if (!PyArg_ParseTuple(args, "ULdO", &id, &line, &el, &digests))
        return NULL;
    Py_ssize_t nd = -1;
    const unsigned char *dp = NULL;
    if (digests != Py_None) {
        if (!PyBytes_Check(digests) || PyBytes_GET_SIZE(digests) % ACT_HASH) {
            PyErr_SetString(PyExc_TypeError, "digests: bytes, 8 per action, or None");
            return NULL;
        }
        nd = PyBytes_GET_SIZE(digests) / ACT_HASH;
        dp = (const unsigned char *)PyBytes_AS_STRING(digests);
    }
    if (id_hash(self, id, h) != 0 || resp_append(self, h, line, el, dp, nd) != 0)
        return NULL;
    Py_RETURN_NONE;
}

static int resp_index(const Responses *self, PyObject *arg, size_t *k)
{
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (i == -1 && PyErr_Occurred())
        return NO;
    if (i < 0 || (size_t)i >= self->n) {
        PyErr_SetString(PyExc_IndexError, "no such response");
        return NO;
    }
    *k = (size_t)i;
    return 0;
}

static PyObject *resp_line_of(Responses *self, PyObject *arg)
{
    size_t k;
    return resp_index(self, arg, &k) ? NULL : PyLong_FromLongLong(self->line[k]);
}

static PyObject *resp_el_of(Responses *self, PyObject *arg)
{
    size_t k;
    return resp_index(self, arg, &k) ? NULL : PyFloat_FromDouble(self->el[k]);
}

#define INDEX_MIN 32 /* a response listing more actions than this is looked up by `ord` */

/* Slot a before slot b: by digest, then by slot (so a digest's slots keep the list's order). */
static inline int slot_before(const Responses *self, uint32_t a, uint32_t b)
{
    int c = memcmp(self->dig + (size_t)a * ACT_HASH, self->dig + (size_t)b * ACT_HASH, ACT_HASH);
    return c < 0 || (c == 0 && a < b);
}

/* Response k's slots sorted by (digest, slot) into ord[first, first + n): a bottom-up merge
 * sort, n log n, with a scratch buffer of n. 0, or NO with MemoryError set. */
static int resp_build_index(Responses *self, size_t k)
{
    size_t first = (size_t)self->first[k], n = (size_t)self->nslots[k];
    if (self->ocap < self->dcap) {
        if (grow((void **)&self->ord, self->dcap, sizeof(uint32_t))) {
            PyErr_NoMemory();
            return NO;
        }
        self->ocap = self->dcap;
    }
    uint32_t *a = self->ord + first;
    uint32_t *tmp = PyMem_RawMalloc(n * sizeof *tmp);
    if (tmp == NULL) {
        PyErr_NoMemory();
        return NO;
    }
    for (size_t i = 0; i < n; i++)
        a[i] = (uint32_t)(first + i);
    uint32_t *src = a, *dst = tmp;
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                dst[o++] = slot_before(self, src[j], src[i]) ? src[j++] : src[i++];
            while (i < mid)
                dst[o++] = src[i++];
            while (j < hi)
                dst[o++] = src[j++];
        }
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, n * sizeof *a);
    PyMem_RawFree(tmp);
    self->indexed[k] = 1;
    return 0;
}

/* One run of response k's action whose hash is d: its verdict (C_*), or -1 with MemoryError
 * set. A requested action runs once: a second run of it is a repeat, whatever the count
 * (only "never ran" and "ran" matter to the findings), so one byte per slot is a flag. The
 * first listed slot of that digest not yet run is taken: through `ord` the slots of a digest
 * are in list order and the ones run are a prefix of them (only this takes a slot), so a
 * binary search finds the digest and another the first not run. */
static int resp_consume_hash(Responses *self, size_t k, const unsigned char *d)
{
    int32_t n = self->nslots[k];
    if (n < 0)
        return C_UNLISTED;
    size_t first = (size_t)self->first[k];
    if (n > INDEX_MIN && self->nd <= UINT32_MAX) {
        if (!self->indexed[k] && resp_build_index(self, k) != 0)
            return -1;
        const uint32_t *a = self->ord + first;
        size_t lo = 0, hi = (size_t)n;
        while (lo < hi) { /* the first slot whose digest is not below d */
            size_t m = lo + (hi - lo) / 2;
            if (memcmp(self->dig + (size_t)a[m] * ACT_HASH, d, ACT_HASH) < 0)
                lo = m + 1;
            else
                hi = m;
        }
        size_t g0 = lo;
        hi = (size_t)n;
        while (lo < hi) { /* the end of d's slots */
            size_t m = lo + (hi - lo) / 2;
            if (memcmp(self->dig + (size_t)a[m] * ACT_HASH, d, ACT_HASH) <= 0)
                lo = m + 1;
            else
                hi = m;
        }
        size_t g1 = lo;
        if (g0 == g1)
            return C_NONE;
        lo = g0;
        hi = g1;
        while (lo < hi) { /* the first of them not run */
            size_t m = lo + (hi - lo) / 2;
            if (self->used[a[m]])
                lo = m + 1;
            else
                hi = m;
        }
        if (lo == g1)
            return C_REPEAT;
        self->used[a[lo]] = 1;
        return C_OK;
    }
    int seen = 0;
    for (size_t s = first; s < first + (size_t)n; s++)
        if (memcmp(self->dig + s * ACT_HASH, d, ACT_HASH) == 0) {
            if (self->used[s] == 0) {
                self->used[s] = 1;
                return C_OK;
            }
            seen = 1;
        }
    return seen ? C_REPEAT : C_NONE;
}

static PyObject *resp_consume(Responses *self, PyObject *args)
{
    Py_ssize_t i;
    Py_buffer d;
    if (!PyArg_ParseTuple(args, "ny*", &i, &d))
        return NULL;
    if (i < 0 || (size_t)i >= self->n || d.len != ACT_HASH) {
        PyBuffer_Release(&d);
        PyErr_SetString(PyExc_IndexError, "no such response or not a digest");
        return NULL;
    }
    int v = resp_consume_hash(self, (size_t)i, d.buf);
    PyBuffer_Release(&d);
    return v < 0 ? NULL : PyLong_FromLong(v);
}

static PyObject *resp_digest(Responses *self, PyObject *arg)
{
    Py_buffer b;
    unsigned char out[ACT_HASH];
    if (PyObject_GetBuffer(arg, &b, PyBUF_SIMPLE) != 0)
        return NULL;
    siphash(b.buf, (size_t)b.len, self->k0, self->k1, out, ACT_HASH);
    PyBuffer_Release(&b);
    return PyBytes_FromStringAndSize((const char *)out, ACT_HASH);
}

/* (k, line, missing, total) for the first response from ordinal k on with requested
 * actions that never ran, or None: the end-of-log findings, one at a time. */
static PyObject *resp_unrun_next(Responses *self, PyObject *arg)
{
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (i == -1 && PyErr_Occurred())
        return NULL;
    for (size_t k = i < 0 ? 0 : (size_t)i; k < self->n; k++) {
        int32_t n = self->nslots[k];
        if (n <= 0)
            continue;
        size_t first = (size_t)self->first[k];
        long missing = 0;
        for (size_t s = first; s < first + (size_t)n; s++)
            missing += self->used[s] == 0;
        if (missing)
            return Py_BuildValue("nLli", (Py_ssize_t)k, (long long)self->line[k], missing, n);
    }
    Py_RETURN_NONE;
}

static PyObject *resp_full_py(Responses *self, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(resp_full(self));
}

static PyObject *resp_nbytes(Responses *self, PyObject *unused)
{
    (void)unused;
    size_t used = self->cap * sizeof(uint32_t) + self->n * (ID_HASH + 8 + 8 + 8 + 4 + 1)
                  + self->nd * (ACT_HASH + 1) + self->ocap * sizeof(uint32_t);
    return PyLong_FromSize_t(used);
}

static PyMethodDef resp_methods[] = {
    {"find", (PyCFunction)resp_find, METH_O, "find(id) -> ordinal, or -1"},
    {"add", (PyCFunction)resp_add, METH_VARARGS,
     "add(id, line, el, digests): digests 8 bytes per requested action, None if unlisted"},
    {"line_of", (PyCFunction)resp_line_of, METH_O, "line_of(k) -> the response's line"},
    {"el_of", (PyCFunction)resp_el_of, METH_O, "el_of(k) -> its elapsedMs (NaN: unknown)"},
    {"consume", (PyCFunction)resp_consume, METH_VARARGS,
     "consume(k, digest) -> 0 ok, 1 repeat, 2 not requested, 3 unlisted"},
    {"digest", (PyCFunction)resp_digest, METH_O, "digest(blob) -> an action's 8 bytes"},
    {"unrun_next", (PyCFunction)resp_unrun_next, METH_O,
     "unrun_next(k) -> (k, line, missing, total) or None"},
    {"full", (PyCFunction)resp_full_py, METH_NOARGS,
     "full() -> at the bound given (max_responses, max_slots): take no more"},
    {"nbytes", (PyCFunction)resp_nbytes, METH_NOARGS,
     "bytes in use (resident): what the log's length costs"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ResponsesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "moderator_app.core.formats._skim.Responses",
    .tp_basicsize = sizeof(Responses),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Responses(key16, max_responses=0, max_slots=0): the per-response state of an "
              "agent log, compact",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)resp_init,
    .tp_dealloc = (destructor)resp_dealloc,
    .tp_methods = resp_methods,
};
