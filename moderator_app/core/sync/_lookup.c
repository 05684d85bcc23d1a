/*
 * _lookup: the sync fit's score sums (core/sync/align.py) in one pass, bit for bit as numpy
 * computes them (issue 13's cost: the analysis may add at most 20 % to the scan's time).
 *
 * Why this exists: every fit, drift search and shuffled log of the sync analysis asks for
 * score[r] = sum over actions j of table[index(offset[r] + x[j])], where index(v) is
 * ceil(v / res - base) clipped onto the table (`lookup.Lookup.index`, `np.take(mode="clip")`).
 * numpy makes eight passes over offsets x actions (add, divide, subtract, ceil, cast, take,
 * sum, plus the temporaries' memory); here each term is computed once, in registers, and the
 * terms of a row summed as numpy's sum over the actions' axis sums them: pairwise (fewer than
 * 8 terms in order from -0.0; up to 128 in 8 running sums joined as ((0+1)+(2+3))+((4+5)+
 * (6+7)), then the rest in order; more split in two at a multiple of 8; added onto 0.0).
 * The same IEEE operations in the same order: the same doubles (tests/sync/
 * test_sync_fast_paths.py runs both on every path). Built with -ffp-contract=off: no fused
 * operation may change a rounding. It reads caller-owned buffers whose sizes it checks.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ABI 2
#define PW_BLOCKSIZE 128

/* numpy's DOUBLE_pairwise_sum (numpy/_core/src/umath/loops_utils.h.src), contiguous */
static double pairwise(const double *a, Py_ssize_t n)
{
    if (n < 8) {
        double res = -0.0;
        for (Py_ssize_t i = 0; i < n; i++)
            res += a[i];
        return res;
    }
    if (n <= PW_BLOCKSIZE) {
        double r[8];
        Py_ssize_t i;
        for (int j = 0; j < 8; j++)
            r[j] = a[j];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++)
                r[j] += a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            res += a[i];
        return res;
    }
    Py_ssize_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwise(a, n2) + pairwise(a + n2, n - n2);
}

/* The terms of one row: v[j] = table[clip(ceil((x[j] + o) / res - base))]. The clip is taken
 * on the double, as numpy's cast then np.take(mode="clip") clip it: under 0 (or NaN) is the
 * first entry, past the table the last, and at 2^63 or more (numpy's cast: the "integer
 * indefinite", negative) the first again. Vectorised where the CPU has AVX2 (a clone chosen
 * at load time); the same operations either way. */
#if defined(__GNUC__) && defined(__x86_64__) && defined(__linux__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
static void terms(const double *restrict x, double o, Py_ssize_t k, double res, double base,
                  const double *restrict tab, double last, double *restrict v)
{
    for (Py_ssize_t j = 0; j < k; j++) {
        double c = ceil((x[j] + o) / res - base);
        double m = c > 0.0 ? c : 0.0;
        m = m < last ? m : last;
        m = c < 9.2e18 ? m : 0.0;
        v[j] = tab[(int32_t)m];
    }
}

static int get(PyObject *o, Py_buffer *b, Py_ssize_t want, int writable, const char *name)
{
    if (PyObject_GetBuffer(o, b, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    if ((want >= 0 && b->len != want) || b->len % 8) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, %zd expected", name, b->len, want);
        PyBuffer_Release(b);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(sums_doc,
"sums(table, res, base, offsets, x, which, out)\n\n"
"table: float64[t]; offsets: float64[r]; x: float64[s, k] (k = the actions, s rows of\n"
"times); which: int64[r] (the row of x each offset adds to, in 0..s-1); out: float64[r].\n"
"out[i] = sum over j of table[clip(ceil((x[which[i], j] + offsets[i]) / res - base))],\n"
"summed as numpy sums a row.");

static PyObject *sums(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *ot, *oo, *ox, *ow, *out;
    double res, base;
    Py_ssize_t k;
    if (!PyArg_ParseTuple(args, "OddOOnOO", &ot, &res, &base, &oo, &ox, &k, &ow, &out))
        return NULL;
    Py_buffer bt, bo, bx, bw, bout;
    if (get(ot, &bt, -1, 0, "table") < 0)
        return NULL;
    if (get(oo, &bo, -1, 0, "offsets") < 0) {
        PyBuffer_Release(&bt);
        return NULL;
    }
    Py_ssize_t t = bt.len / 8, r = bo.len / 8;
    int ok = 0;
    if (k < 1 || t < 1 || t > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "no action, or a table empty or too long");
    } else if (get(ox, &bx, -1, 0, "x") == 0) {
        Py_ssize_t s = bx.len / 8 / k;
        if (bx.len / 8 != s * k || s < 1) {
            PyErr_SetString(PyExc_ValueError, "x: not rows of k times");
        } else if (get(ow, &bw, r * 8, 0, "which") == 0) {
            if (get(out, &bout, r * 8, 1, "out") == 0) {
                const double *tab = bt.buf, *off = bo.buf, *x = bx.buf;
                const int64_t *w = bw.buf;
                double *o = bout.buf;
                double *v = malloc((size_t)k * sizeof(double));
                ok = v != NULL;
                for (Py_ssize_t i = 0; ok && i < r; i++) {
                    if (w[i] < 0 || w[i] >= s) {
                        PyErr_SetString(PyExc_ValueError, "which: a row out of range");
                        ok = 0;
                        break;
                    }
                    terms(x + w[i] * k, off[i], k, res, base, tab, (double)(t - 1), v);
                    o[i] = 0.0 + pairwise(v, k);
                }
                if (v == NULL)
                    PyErr_NoMemory();
                free(v);
                PyBuffer_Release(&bout);
            }
            PyBuffer_Release(&bw);
        }
        PyBuffer_Release(&bx);
    }
    PyBuffer_Release(&bo);
    PyBuffer_Release(&bt);
    if (!ok)
        return NULL;
    Py_RETURN_NONE;
}

/* grid_sums: the same sums as `sums` (one row of times), computed action by action over a
 * chunk of offsets. Why: on a fit's grid of offsets (a frame apart, or every DECIMATE-th) an
 * action's table indices over consecutive offsets step by a whole number S of entries, so its
 * terms are one contiguous run of a table laid out by phase (phases[p][q] = table[q S + p]),
 * read without a gather (the gather was the row-by-row loop's bound). Nothing is assumed:
 * each index is computed as `terms` computes it and the run is taken only where every index
 * of the chunk is checked to be (a prefix under 0), c, c + S, c + 2S, ... (a suffix past the
 * table); any other chunk takes `terms`' own clip, term by term. The terms of each offset are
 * added in `pairwise`'s order and grouping, whole chunks at a time. */
#define CHUNK 256

typedef struct {
    const double *off, *tab, *ph;
    double res, base, last;
    Py_ssize_t c, S, lq;
    int rising;   /* offsets strictly increasing: every index is too (below) */
    double *cb;   /* CHUNK indices */
} grid_ctx;

static double lane[CHUNK];  /* 0, 1, 2, ...: the arithmetic run's offsets, as doubles */

static inline double index_of(const grid_ctx *g, double xj, double o)
{
    return ceil((xj + o) / g->res - g->base);
}

/* `terms`' value for an index: the clip on the double, as numpy's cast and take clip */
static inline double clipped(const grid_ctx *g, double c)
{
    double m = c > 0.0 ? c : 0.0;
    m = m < g->last ? m : g->last;
    m = c < 9.2e18 ? m : 0.0;
    return g->tab[(int32_t)m];
}

/* dst[i] (add: +=, else =) the term of action time xj at the chunk's offset i.
 * Rising offsets: x + o, its quotient by res > 0, less base, and the ceiling are each
 * monotone in o (IEEE rounding is), so the indices rise too: a chunk whose first and last
 * indices are both under 0 (both past the table) reads the first (last) entry throughout,
 * and in any chunk those lanes are a prefix (a suffix), found by bisection. */
#if defined(__GNUC__) && defined(__x86_64__) && defined(__linux__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
static void column(const grid_ctx *g, double xj, double *restrict dst, int add)
{
    const Py_ssize_t c = g->c;
    const double *restrict off = g->off;
    double *restrict cb = g->cb;
    const double res = g->res, base = g->base, last = g->last;
    Py_ssize_t i, a = 0, b = c;
    int off_table = 0;  /* a chunk wholly off the table: one value, `fill` */
    double fill = 0.0;
    if (g->rising) {
        double c0 = index_of(g, xj, off[0]), c1 = index_of(g, xj, off[c - 1]);
        if (c1 < 0.0) {
            off_table = 1;
            fill = g->tab[0];
        } else if (c0 > last && c1 < 9.2e18) {
            off_table = 1;
            fill = g->tab[(Py_ssize_t)last];
        } else if (c0 >= 0.0 && c1 <= last) {
            /* wholly on the table (the usual chunk): each index checked against the run
             * in the same pass that computes it, none kept */
            const double step = (double)g->S;
            int miss = 0;
            for (i = 0; i < c; i++)
                miss |= ceil((xj + off[i]) / res - base) != c0 + step * lane[i];
            if (!miss) {
                const Py_ssize_t m = (Py_ssize_t)c0;
                const double *restrict p = g->ph + (m % g->S) * g->lq + m / g->S;
                if (add)
                    for (i = 0; i < c; i++)
                        dst[i] += p[i];
                else
                    memcpy(dst, p, (size_t)c * sizeof(double));
                return;
            }
        }
    }
    if (off_table) {
        if (add)
            for (i = 0; i < c; i++)
                dst[i] += fill;
        else
            for (i = 0; i < c; i++)
                dst[i] = fill;
        return;
    }
    for (i = 0; i < c; i++)
        cb[i] = ceil((xj + off[i]) / res - base);
    int bad = !g->rising;
    if (!bad) {
        Py_ssize_t lo = 0, hi = c;  /* a: the first index >= 0 */
        while (lo < hi) {
            Py_ssize_t mid = (lo + hi) / 2;
            if (cb[mid] < 0.0)
                lo = mid + 1;
            else
                hi = mid;
        }
        a = lo;
        hi = c;  /* b: the first index past the table */
        while (lo < hi) {
            Py_ssize_t mid = (lo + hi) / 2;
            if (cb[mid] > last)
                hi = mid;
            else
                lo = mid + 1;
        }
        b = lo;
        bad = b < c && !(cb[c - 1] < 9.2e18);
    }
    if (!bad && a < b) {
        const double step = (double)g->S, start = cb[a] - step * (double)a;
        for (i = a; i < b; i++)
            bad |= cb[i] != start + step * lane[i];
    }
    if (bad) {  /* term by term, as `terms` */
        if (add)
            for (i = 0; i < c; i++)
                dst[i] += clipped(g, cb[i]);
        else
            for (i = 0; i < c; i++)
                dst[i] = clipped(g, cb[i]);
        return;
    }
    const double t0 = g->tab[0], t1 = g->tab[(Py_ssize_t)last];
    const double *p = g->ph;
    if (a < b) {
        Py_ssize_t m = (Py_ssize_t)cb[a];
        p = g->ph + (m % g->S) * g->lq + m / g->S - a;
    }
    if (add) {
        for (i = 0; i < a; i++)
            dst[i] += t0;
        for (i = a; i < b; i++)
            dst[i] += p[i];
        for (i = b; i < c; i++)
            dst[i] += t1;
    } else {
        for (i = 0; i < a; i++)
            dst[i] = t0;
        for (i = a; i < b; i++)
            dst[i] = p[i];
        for (i = b; i < c; i++)
            dst[i] = t1;
    }
}

/* Where an action's terms over the chunk come from: computed (`column`), or kept from
 * before (`cols`: whole columns over every offset, read from r0) */
typedef struct {
    const grid_ctx *g;
    const double *x;
    double *const *cols;
    Py_ssize_t r0;
} source;

static inline void take(const source *s, Py_ssize_t j, double *restrict dst, int add)
{
    if (s->cols == NULL) {
        column(s->g, s->x[j], dst, add);
        return;
    }
    const double *restrict c = s->cols[j] + s->r0;
    const Py_ssize_t n = s->g->c;
    if (add)
        for (Py_ssize_t i = 0; i < n; i++)
            dst[i] += c[i];
    else
        memcpy(dst, c, (size_t)n * sizeof(double));
}

/* dst[i] = pairwise(terms of actions j0..j0+n-1 at offset i), chunk-wide, in `pairwise`'s
 * order and grouping; work: 8 CHUNKs */
static int pw_cols(const source *src, Py_ssize_t j0, Py_ssize_t n, double *dst, double *work)
{
    const Py_ssize_t c = src->g->c;
    Py_ssize_t i, q, j;
    if (n < 8) {
        for (i = 0; i < c; i++)
            dst[i] = -0.0;
        for (j = 0; j < n; j++)
            take(src, j0 + j, dst, 1);
        return 0;
    }
    if (n <= PW_BLOCKSIZE) {
        double *acc = work;  /* 8 running sums, CHUNK each */
        for (q = 0; q < 8; q++)
            take(src, j0 + q, acc + q * CHUNK, 0);
        for (j = 8; j < n - (n % 8); j += 8)
            for (q = 0; q < 8; q++)
                take(src, j0 + j + q, acc + q * CHUNK, 1);
        for (i = 0; i < c; i++) {
            const double *r = acc + i;
            dst[i] = ((r[0] + r[CHUNK]) + (r[2 * CHUNK] + r[3 * CHUNK])) +
                     ((r[4 * CHUNK] + r[5 * CHUNK]) + (r[6 * CHUNK] + r[7 * CHUNK]));
        }
        for (; j < n; j++)
            take(src, j0 + j, dst, 1);
        return 0;
    }
    Py_ssize_t n2 = n / 2;
    n2 -= n2 % 8;
    double *half = malloc(CHUNK * sizeof(double));
    if (half == NULL)
        return -1;
    int err = pw_cols(src, j0, n2, dst, work) || pw_cols(src, j0 + n2, n - n2, half, work);
    for (i = 0; !err && i < c; i++)
        dst[i] = dst[i] + half[i];
    free(half);
    return err;
}

PyDoc_STRVAR(grid_sums_doc,
"grid_sums(table, res, base, offsets, x, k, segments, S, phases, out)\n\n"
"`sums` by runs of offsets: x: float64[s, k] (rows of times); segments: int64[m, 3], each\n"
"(lo, hi, row): the offsets lo..hi-1 with the times of row `row`; out: float64[the\n"
"segments' offsets in all], segment after segment: out = sum over j of\n"
"table[clip(ceil((x[row, j] + offsets[i]) / res - base))], summed as numpy sums a row, bit\n"
"for bit. phases: float64[S, lq], lq = ceil(len(table) / S), phases[p, q] = table[q S + p]\n"
"(the rest anything); fastest where the index steps by S from one offset to the next.");

static PyObject *grid_sums(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *ot, *oo, *ox, *osg, *op, *out;
    double res, base;
    Py_ssize_t k, S;
    if (!PyArg_ParseTuple(args, "OddOOnOnOO", &ot, &res, &base, &oo, &ox, &k, &osg, &S, &op,
                          &out))
        return NULL;
    Py_buffer bt, bo, bx, bsg, bp, bout;
    if (get(ot, &bt, -1, 0, "table") < 0)
        return NULL;
    Py_ssize_t t = bt.len / 8;
    if (t < 1 || t > INT32_MAX || S < 1 || S > t || k < 1) {
        PyErr_SetString(PyExc_ValueError,
                        "a table empty or too long, a step out of range, or no action");
        PyBuffer_Release(&bt);
        return NULL;
    }
    Py_ssize_t lq = (t + S - 1) / S;
    if (get(oo, &bo, -1, 0, "offsets") < 0) {
        PyBuffer_Release(&bt);
        return NULL;
    }
    Py_ssize_t r = bo.len / 8;
    int ok = 0;
    if (get(ox, &bx, -1, 0, "x") == 0) {
        Py_ssize_t rows = bx.len / 8 / k;
        if (bx.len / 8 != rows * k || rows < 1) {
            PyErr_SetString(PyExc_ValueError, "x: not rows of k times");
        } else if (get(osg, &bsg, -1, 0, "segments") == 0) {
            const int64_t *sg = bsg.buf;
            Py_ssize_t m = bsg.len / 24, total = 0;
            int valid = bsg.len % 24 == 0;
            for (Py_ssize_t i = 0; valid && i < m; i++) {
                valid = 0 <= sg[3 * i] && sg[3 * i] <= sg[3 * i + 1] && sg[3 * i + 1] <= r &&
                        0 <= sg[3 * i + 2] && sg[3 * i + 2] < rows;
                total += valid ? sg[3 * i + 1] - sg[3 * i] : 0;
            }
            if (!valid) {
                PyErr_SetString(PyExc_ValueError, "segments: not (lo, hi, row) in range");
            } else if (get(op, &bp, S * lq * 8, 0, "phases") == 0) {
                if (get(out, &bout, total * 8, 1, "out") == 0) {
                    double *buf = malloc((size_t)(CHUNK * 11) * sizeof(double));
                    ok = buf != NULL;
                    const double *offs = bo.buf, *x = bx.buf;
                    int rising = res > 0.0;  /* a division by res > 0 keeps the order */
                    for (Py_ssize_t i = 1; i < r; i++)
                        rising &= offs[i - 1] < offs[i];
                    grid_ctx g = {offs, bt.buf, bp.buf, res, base, (double)(t - 1), 0, S, lq,
                                  rising, buf};
                    double *dst = buf + CHUNK, *work = buf + 2 * CHUNK;
                    double *o = bout.buf;
                    for (Py_ssize_t i = 0; ok && i < m; i++) {
                        const source src = {&g, x + sg[3 * i + 2] * k, NULL, 0};
                        for (Py_ssize_t r0 = sg[3 * i]; ok && r0 < sg[3 * i + 1]; r0 += CHUNK) {
                            g.off = offs + r0;
                            g.c = sg[3 * i + 1] - r0 < CHUNK ? sg[3 * i + 1] - r0 : CHUNK;
                            if (pw_cols(&src, 0, k, dst, work) < 0) {
                                ok = 0;
                                break;
                            }
                            for (Py_ssize_t j = 0; j < g.c; j++)
                                *o++ = 0.0 + dst[j];
                        }
                    }
                    if (!ok)
                        PyErr_NoMemory();
                    free(buf);
                    PyBuffer_Release(&bout);
                }
                PyBuffer_Release(&bp);
            }
            PyBuffer_Release(&bsg);
        }
        PyBuffer_Release(&bx);
    }
    PyBuffer_Release(&bo);
    PyBuffer_Release(&bt);
    if (!ok)
        return NULL;
    Py_RETURN_NONE;
}

/* `align.fit_of`'s numbers, as numpy computes them (np.argmax, the mask |o - o_top| > near,
 * mean and std by numpy's pairwise sums, max): res = [i, top, mean, std, max], i = -1 when a
 * score is NaN (the caller asks numpy). rest: n doubles of room. */
static void stats(const double *o, const double *sc, Py_ssize_t n, double near, double *rest,
                  double *res)
{
    Py_ssize_t i, top = 0, m = 0;
    int nan = 0;
    for (i = 0; i < n; i++) {
        nan |= sc[i] != sc[i];
        if (sc[i] > sc[top])
            top = i;
    }
    if (nan) {
        res[0] = -1.0;
        return;
    }
    const double off = o[top];
    for (i = 0; i < n; i++)
        if (fabs(o[i] - off) > near)
            rest[m++] = sc[i];
    if (m == 0) {
        memcpy(rest, sc, (size_t)n * sizeof(double));
        m = n;
    }
    double mx = rest[0];
    for (i = 1; i < m; i++)
        mx = rest[i] > mx ? rest[i] : mx;
    const double mean = (0.0 + pairwise(rest, m)) / (double)m;
    for (i = 0; i < m; i++) {
        double d = rest[i] - mean;
        rest[i] = d * d;
    }
    res[0] = (double)top;
    res[1] = sc[top];
    res[2] = mean;
    res[3] = sqrt((0.0 + pairwise(rest, m)) / (double)m);
    res[4] = mx;
}

PyDoc_STRVAR(fit_stats_doc,
"fit_stats(offsets, scores, near, out)\n\n"
"`align.fit_of`'s numbers, as numpy computes them: out = [i, top, mean, std, max] with i the\n"
"first highest score, and mean, std (ddof 0) and max over the scores whose offset lies more\n"
"than `near` from offsets[i] (all of them when none does); i = -1 when a score is NaN.");

static PyObject *fit_stats(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *oo, *os, *out;
    double near;
    if (!PyArg_ParseTuple(args, "OOdO", &oo, &os, &near, &out))
        return NULL;
    Py_buffer bo, bs, bout;
    if (get(oo, &bo, -1, 0, "offsets") < 0)
        return NULL;
    Py_ssize_t n = bo.len / 8;
    int ok = 0;
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "no offset");
    } else if (get(os, &bs, n * 8, 0, "scores") == 0) {
        if (get(out, &bout, 5 * 8, 1, "out") == 0) {
            double *rest = malloc((size_t)n * sizeof(double));
            ok = rest != NULL;
            if (ok)
                stats(bo.buf, bs.buf, n, near, rest, bout.buf);
            else
                PyErr_NoMemory();
            free(rest);
            PyBuffer_Release(&bout);
        }
        PyBuffer_Release(&bs);
    }
    PyBuffer_Release(&bo);
    if (!ok)
        return NULL;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(window_fits_doc,
"window_fits(table, res, base, offsets, x, windows, S, phases, near, out)\n\n"
"The track's windows (`track.windows`): per window (i0, i1) of the actions x[i0:i1] (windows\n"
"moving forward: i0 and i1 never decrease), its scores over every offset (`grid_sums`'), then\n"
"`fit_stats`' five numbers into out[w]. Each action's terms are computed once while it\n"
"stays in the windows (a 10 s window every 2 s holds an action five times).");

static PyObject *window_fits(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *ot, *oo, *ox, *ow, *op, *out;
    double res, base, near;
    Py_ssize_t S;
    if (!PyArg_ParseTuple(args, "OddOOOnOdO", &ot, &res, &base, &oo, &ox, &ow, &S, &op, &near,
                          &out))
        return NULL;
    Py_buffer bt, bo, bx, bw, bp, bout;
    if (get(ot, &bt, -1, 0, "table") < 0)
        return NULL;
    Py_ssize_t t = bt.len / 8;
    if (t < 1 || t > INT32_MAX || S < 1 || S > t) {
        PyErr_SetString(PyExc_ValueError, "a table empty or too long, or a step out of range");
        PyBuffer_Release(&bt);
        return NULL;
    }
    Py_ssize_t lq = (t + S - 1) / S;
    if (get(oo, &bo, -1, 0, "offsets") < 0) {
        PyBuffer_Release(&bt);
        return NULL;
    }
    Py_ssize_t r = bo.len / 8;
    int ok = 0;
    if (r < 1) {
        PyErr_SetString(PyExc_ValueError, "no offset");
    } else if (get(ox, &bx, -1, 0, "x") == 0) {
        Py_ssize_t nx = bx.len / 8;
        if (get(ow, &bw, -1, 0, "windows") == 0) {
            const int64_t *w = bw.buf;
            Py_ssize_t nw = bw.len / 16;
            int valid = bw.len % 16 == 0;
            for (Py_ssize_t i = 0; valid && i < nw; i++)
                valid = 0 <= w[2 * i] && w[2 * i] < w[2 * i + 1] && w[2 * i + 1] <= nx &&
                        (i == 0 || (w[2 * i - 2] <= w[2 * i] && w[2 * i - 1] <= w[2 * i + 1]));
            if (!valid) {
                PyErr_SetString(PyExc_ValueError, "windows: not rising (i0, i1) in range");
            } else if (get(op, &bp, S * lq * 8, 0, "phases") == 0) {
                if (get(out, &bout, nw * 5 * 8, 1, "out") == 0) {
                    const double *offs = bo.buf, *x = bx.buf;
                    double *buf = malloc((size_t)(CHUNK * 10 + 2 * r) * sizeof(double));
                    double **cols = calloc((size_t)(nx > 0 ? nx : 1), sizeof(double *));
                    ok = buf != NULL && cols != NULL;
                    int rising = res > 0.0;
                    for (Py_ssize_t i = 1; i < r; i++)
                        rising &= offs[i - 1] < offs[i];
                    grid_ctx g = {offs, bt.buf, bp.buf, res, base, (double)(t - 1), 0, S, lq,
                                  rising, buf};
                    double *dst = buf + CHUNK, *work = buf + 2 * CHUNK;
                    double *sc = buf + 10 * CHUNK, *rest = sc + r;
                    double *o = bout.buf;
                    Py_ssize_t kept = 0;  /* columns 0..kept-1 freed or never needed */
                    for (Py_ssize_t i = 0; ok && i < nw; i++) {
                        const Py_ssize_t i0 = w[2 * i], i1 = w[2 * i + 1];
                        for (; kept < i0; kept++) {
                            free(cols[kept]);
                            cols[kept] = NULL;
                        }
                        for (Py_ssize_t j = i0; ok && j < i1; j++) {
                            if (cols[j] != NULL)
                                continue;
                            cols[j] = malloc((size_t)r * sizeof(double));
                            ok = cols[j] != NULL;
                            for (Py_ssize_t r0 = 0; ok && r0 < r; r0 += CHUNK) {
                                g.off = offs + r0;
                                g.c = r - r0 < CHUNK ? r - r0 : CHUNK;
                                column(&g, x[j], cols[j] + r0, 0);
                            }
                        }
                        for (Py_ssize_t r0 = 0; ok && r0 < r; r0 += CHUNK) {
                            const source src = {&g, x, cols, r0};
                            g.c = r - r0 < CHUNK ? r - r0 : CHUNK;
                            if (pw_cols(&src, i0, i1 - i0, dst, work) < 0)
                                ok = 0;
                            for (Py_ssize_t q = 0; ok && q < g.c; q++)
                                sc[r0 + q] = 0.0 + dst[q];
                        }
                        if (ok)
                            stats(offs, sc, r, near, rest, o + 5 * i);
                    }
                    if (!ok)
                        PyErr_NoMemory();
                    for (Py_ssize_t j = 0; cols != NULL && j < nx; j++)
                        free(cols[j]);
                    free(cols);
                    free(buf);
                    PyBuffer_Release(&bout);
                }
                PyBuffer_Release(&bp);
            }
            PyBuffer_Release(&bw);
        }
        PyBuffer_Release(&bx);
    }
    PyBuffer_Release(&bo);
    PyBuffer_Release(&bt);
    if (!ok)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"sums", sums, METH_VARARGS, sums_doc},
    {"grid_sums", grid_sums, METH_VARARGS, grid_sums_doc},
    {"fit_stats", fit_stats, METH_VARARGS, fit_stats_doc},
    {"window_fits", window_fits, METH_VARARGS, window_fits_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_lookup",
    "The sync fit's score sums in one pass (see _lookup.c).", -1, methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__lookup(void)
{
    for (int i = 0; i < CHUNK; i++)
        lane[i] = (double)i;
    PyObject *m = PyModule_Create(&moduledef);
    if (m != NULL && PyModule_AddIntConstant(m, "ABI", ABI) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
