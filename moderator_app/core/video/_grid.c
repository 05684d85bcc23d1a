/*
 * _grid: the integrity scan's per-frame signals of a batch of 8-bit luma grids in one pass
 * over each grid (issue 12 point 5).
 *
 * Why this exists: on tiny or small videos (16x16 to 640x480) decoding a frame costs 7-40 us,
 * and the batched numpy reduction of its 256x128 grid (`signals._Rows._reduce`) cost ~29 us:
 * about ten passes over each 32 KB grid (block sums, differences, two thresholds, counts),
 * each bound by memory traffic. Here each grid is read once, beside the previous one, while
 * it is in the cache: ~3 us a frame.
 *
 * It returns only integer sums (the thumbnail's block sums, |differences| of those sums per
 * tile, counts of sample points moved beyond a level, the brightest point); the caller divides
 * them exactly as the numpy path does, so both give the same float32 signals to the bit
 * (tests/video/test_video_signals_batch.py runs both against `signals.frame_row`).
 * It reads a grid buffer and writes caller-owned buffers whose sizes it checks: no pointer
 * from the video reaches it, only pixels.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define GW 256      /* GRID_W */
#define GH 128      /* GRID_H */
#define TW 64       /* THUMB_W: blocks of BX points */
#define TH 32       /* THUMB_H: blocks of BY rows */
#define BX (GW / TW)
#define BY (GH / TH)
#define TILES 8
#define SG 16       /* SYNC_GRID */
#define CHANGE 12   /* CHANGE_LEVEL, floored: d > 12.0 on integers */
#define SYNC 24     /* SYNC_NOISE */
#define ABI 2       /* 2: + same(); reduce() takes a grid equal to the one before as such
                       (sample(), session 26, is looked up by name: a build without it
                       still reduces, and the grids are gathered by numpy) */
_Static_assert(BX == 4, "the pair sums in thumb() add 4 columns");

/* Block sums of one grid (the thumbnail's BY x BX sums) and its brightest point. */
static void thumb(const uint8_t *g, int32_t ts[TH][TW], uint8_t *mx)
{
    uint8_t m = 0;
    for (int ty = 0; ty < TH; ty++) {
        uint16_t col[GW];
        memset(col, 0, sizeof col);
        for (int r = 0; r < BY; r++) {
            const uint8_t *row = g + (size_t)(ty * BY + r) * GW;
            for (int x = 0; x < GW; x++) {
                col[x] += row[x];
                m = row[x] > m ? row[x] : m;
            }
        }
        /* sums of BX = 4 neighbouring columns as two rounds of pair sums of the halves of a
         * wider word (the order of the halves does not matter to a sum), which vectorise
         * where strided loads would not */
        uint32_t w[GW / 2], p[GW / 2];
        memcpy(w, col, sizeof w);
        for (int i = 0; i < GW / 2; i++)
            p[i] = (w[i] & 0xffffu) + (w[i] >> 16);
        uint64_t q[TW];
        memcpy(q, p, sizeof q);
        for (int tx = 0; tx < TW; tx++)
            ts[ty][tx] = (int32_t)((q[tx] & 0xffffffffu) + (q[tx] >> 32));
    }
    *mx = m;
}

static int get(PyObject *o, Py_buffer *b, Py_ssize_t want, int writable, const char *name)
{
    if (PyObject_GetBuffer(o, b, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    if (b->len != want) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, %zd expected", name, b->len, want);
        PyBuffer_Release(b);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(reduce_doc,
"reduce(buf, n, lsum, lmax, msum, tiles, changed, sync)\n\n"
"buf: (n + 1) uint8 grids of 128x256 (grid 0: the frame before them). For grids 1..n,\n"
"writes the thumbnail's sum (int64[n]), the brightest point (uint8[n]), the sum of\n"
"|thumbnail block sums - the previous grid's| (int64[n]) and per 8x8 tile (int64[n, 64]),\n"
"the points whose |difference| exceeds 12 (int64[n]) and per 16x16 tile the points whose\n"
"|difference| exceeds 24 (uint8[n, 256]).");

static PyObject *reduce(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *ob, *ol, *ox, *om, *ot, *oc, *os;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "OnOOOOOO", &ob, &n, &ol, &ox, &om, &ot, &oc, &os))
        return NULL;
    if (n < 0 || n > (1 << 20)) {
        PyErr_SetString(PyExc_ValueError, "n out of range");
        return NULL;
    }
    Py_buffer bb, bl, bx, bm, bt, bc, bs;
    const Py_ssize_t G = (Py_ssize_t)GW * GH;
    if (get(ob, &bb, (n + 1) * G, 0, "buf") < 0)
        return NULL;
    int ok = 0;
    if (get(ol, &bl, n * 8, 1, "lsum") == 0) {
        if (get(ox, &bx, n, 1, "lmax") == 0) {
            if (get(om, &bm, n * 8, 1, "msum") == 0) {
                if (get(ot, &bt, n * TILES * TILES * 8, 1, "tiles") == 0) {
                    if (get(oc, &bc, n * 8, 1, "changed") == 0) {
                        if (get(os, &bs, n * SG * SG, 1, "sync") == 0) {
                            ok = 1;
                            const uint8_t *buf = bb.buf;
                            int64_t *lsum = bl.buf, *msum = bm.buf, *tiles = bt.buf,
                                    *changed = bc.buf;
                            uint8_t *lmax = bx.buf, *sync = bs.buf;
                            Py_BEGIN_ALLOW_THREADS
                            int32_t ts[2][TH][TW];
                            uint8_t m;
                            thumb(buf, ts[0], &m);
                            for (Py_ssize_t f = 1; f <= n; f++) {
                                const uint8_t *cur = buf + f * G, *prev = cur - G;
                                int32_t (*tc)[TW] = ts[f & 1], (*tp)[TW] = ts[(f - 1) & 1];
                                int64_t ls = 0, ms = 0;
                                int64_t *tl = tiles + (f - 1) * TILES * TILES;
                                memset(tl, 0, TILES * TILES * sizeof *tl);
                                if (memcmp(cur, prev, (size_t)G) == 0) {
                                    /* the picture repeated (a still screen, a capture at a
                                     * rate above the game's): the same sums as the loops
                                     * below give on it (every difference 0), without them */
                                    memcpy(tc, tp, sizeof ts[0]);
                                    lmax[f - 1] = m;  /* m: the previous grid's brightest */
                                    for (int ty = 0; ty < TH; ty++)
                                        for (int tx = 0; tx < TW; tx++)
                                            ls += tc[ty][tx];
                                    lsum[f - 1] = ls;
                                    msum[f - 1] = 0;
                                    changed[f - 1] = 0;
                                    memset(sync + (f - 1) * SG * SG, 0, SG * SG);
                                    continue;
                                }
                                thumb(cur, tc, &m);
                                lmax[f - 1] = m;
                                for (int ty = 0; ty < TH; ty++) {
                                    /* a row's sums fit 32 bits: 64 blocks of 16 points */
                                    int32_t dd[TW], lr = 0, mr = 0;
                                    for (int tx = 0; tx < TW; tx++) {
                                        int32_t a = tc[ty][tx], b = tp[ty][tx];
                                        int32_t d = a > b ? a - b : b - a;
                                        dd[tx] = d;
                                        lr += a;
                                        mr += d;
                                    }
                                    ls += lr;
                                    ms += mr;
                                    int64_t *t = tl + (ty / (TH / TILES)) * TILES;
                                    for (int k = 0; k < TILES; k++) {
                                        int32_t sum = 0;
                                        for (int i = 0; i < TW / TILES; i++)
                                            sum += dd[k * (TW / TILES) + i];
                                        t[k] += sum;
                                    }
                                }
                                lsum[f - 1] = ls;
                                msum[f - 1] = ms;
                                uint8_t *sy = sync + (f - 1) * SG * SG;
                                uint32_t cnt = 0;
                                for (int sg = 0; sg < SG; sg++) {
                                    /* counts per column over GH / SG = 8 rows: both
                                     * fit a byte, so the loop stays in byte lanes */
                                    uint8_t acc[GW], acc12[GW];
                                    memset(acc, 0, sizeof acc);
                                    memset(acc12, 0, sizeof acc12);
                                    for (int r = 0; r < GH / SG; r++) {
                                        const size_t o = (size_t)(sg * (GH / SG) + r) * GW;
                                        const uint8_t *a = cur + o, *b = prev + o;
                                        for (int x = 0; x < GW; x++) {
                                            uint8_t hi = a[x] > b[x] ? a[x] : b[x];
                                            uint8_t lo = a[x] > b[x] ? b[x] : a[x];
                                            uint8_t d = (uint8_t)(hi - lo);
                                            acc12[x] += d > CHANGE;
                                            acc[x] += d > SYNC;
                                        }
                                    }
                                    for (int x = 0; x < GW; x++)
                                        cnt += acc12[x];
                                    for (int sx = 0; sx < SG; sx++) {
                                        uint8_t s = 0;
                                        for (int i = 0; i < GW / SG; i++)
                                            s += acc[sx * (GW / SG) + i];
                                        sy[sg * SG + sx] = s;
                                    }
                                }
                                changed[f - 1] = cnt;
                            }
                            Py_END_ALLOW_THREADS
                            PyBuffer_Release(&bs);
                        }
                        PyBuffer_Release(&bc);
                    }
                    PyBuffer_Release(&bt);
                }
                PyBuffer_Release(&bm);
            }
            PyBuffer_Release(&bx);
        }
        PyBuffer_Release(&bl);
    }
    PyBuffer_Release(&bb);
    if (!ok)
        return NULL;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(same_doc,
"same(a, b) -> bool\n\n"
"Whether two buffers hold the same bytes (a decoded picture and the one before it: the scan\n"
"then reuses the picture's grid instead of scaling it again).");

static PyObject *same(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer a, b;
    if (!PyArg_ParseTuple(args, "y*y*", &a, &b))
        return NULL;
    int eq = a.len == b.len && memcmp(a.buf, b.buf, (size_t)a.len) == 0;
    PyBuffer_Release(&b);
    PyBuffer_Release(&a);
    return PyBool_FromLong(eq);
}

PyDoc_STRVAR(sample_doc,
"sample(src, line, ys, xs, out, out_line, col0)\n\n"
"Nearest-point samples of an 8-bit plane: out[r * out_line + col0 + c] =\n"
"src[ys[r] * line + xs[c]] for every row r of ys and column c of xs (int64 arrays). What\n"
"`plane[ys][:, xs]` gives, in one pass instead of two gathers and their temporaries (the\n"
"scan's luma grid and its chroma halves, once a frame). Every index is checked against\n"
"both buffers before anything is read.");

#define SAMPLE_MAX 4096  /* columns: the grids have 256 */

/* The gather of `sample`, its indexes checked. A row sampled twice (a plane with fewer rows
 * than the grid: an Atari picture's chroma) is copied from the one before, and columns that
 * follow each other in the plane (a plane as wide as the grid) are copied as a run. */
static void sample_rows(const uint8_t *restrict s, Py_ssize_t line,
                        const int64_t *restrict y, Py_ssize_t nr,
                        const int64_t *restrict x, Py_ssize_t nc,
                        uint8_t *restrict o, Py_ssize_t out_line)
{
    uint32_t xi[SAMPLE_MAX];  /* offsets in a row: below `line`, which fits 32 bits here */
    int run = 1;
    for (Py_ssize_t c = 0; c < nc; c++) {
        xi[c] = (uint32_t)x[c];
        run &= x[c] == x[0] + c;
    }
    for (Py_ssize_t r = 0; r < nr; r++) {
        uint8_t *restrict dst = o + (size_t)r * (size_t)out_line;
        if (r > 0 && y[r] == y[r - 1]) {
            memcpy(dst, dst - out_line, (size_t)nc);
            continue;
        }
        const uint8_t *restrict row = s + (size_t)y[r] * (size_t)line;
        if (run) {
            memcpy(dst, row + xi[0], (size_t)nc);
            continue;
        }
        Py_ssize_t c = 0;
        for (; c + 4 <= nc; c += 4) {  /* four loads before their stores */
            const uint8_t a = row[xi[c]], b = row[xi[c + 1]], d = row[xi[c + 2]],
                          e = row[xi[c + 3]];
            dst[c] = a;
            dst[c + 1] = b;
            dst[c + 2] = d;
            dst[c + 3] = e;
        }
        for (; c < nc; c++)
            dst[c] = row[xi[c]];
    }
}

static PyObject *sample(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer src, ys, xs, out;
    Py_ssize_t line, out_line, col0;
    if (!PyArg_ParseTuple(args, "y*ny*y*w*nn", &src, &line, &ys, &xs, &out, &out_line,
                          &col0))
        return NULL;
    PyObject *result = NULL;
    const Py_ssize_t nr = ys.len / (Py_ssize_t)sizeof(int64_t);
    const Py_ssize_t nc = xs.len / (Py_ssize_t)sizeof(int64_t);
    const int64_t *y = ys.buf, *x = xs.buf;
    int64_t xmin = 0, xmax = -1, ymin = 0, ymax = -1;
    for (Py_ssize_t c = 0; c < nc; c++) {
        if (c == 0 || x[c] < xmin) xmin = x[c];
        if (c == 0 || x[c] > xmax) xmax = x[c];
    }
    for (Py_ssize_t r = 0; r < nr; r++) {
        if (r == 0 || y[r] < ymin) ymin = y[r];
        if (r == 0 || y[r] > ymax) ymax = y[r];
    }
    /* the last point read is ymax * line + xmax, the last written (nr - 1) * out_line +
     * col0 + nc - 1: both compared without a product that could overflow */
    const int bad = ys.len % (Py_ssize_t)sizeof(int64_t) || xs.len % (Py_ssize_t)sizeof(int64_t)
        || line <= 0 || line > INT32_MAX || out_line < 0 || col0 < 0 || xmin < 0 || ymin < 0
        || (nr && nc && (xmax >= line || src.len - 1 - xmax < 0
                         || ymax > (src.len - 1 - xmax) / line
                         || col0 + nc > out_line || out.len - col0 - nc < 0
                         || (nr - 1) > (out.len - col0 - nc) / out_line));
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "sample: an index outside its buffer");
        goto done;
    }
    if (nc > SAMPLE_MAX) {
        PyErr_SetString(PyExc_ValueError, "sample: too many columns");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    sample_rows(src.buf, line, y, nr, x, nc, (uint8_t *)out.buf + col0, out_line);
    Py_END_ALLOW_THREADS
    result = Py_None;
    Py_INCREF(result);
done:
    PyBuffer_Release(&out);
    PyBuffer_Release(&xs);
    PyBuffer_Release(&ys);
    PyBuffer_Release(&src);
    return result;
}

static PyMethodDef methods[] = {
    {"reduce", reduce, METH_VARARGS, reduce_doc},
    {"same", same, METH_VARARGS, same_doc},
    {"sample", sample, METH_VARARGS, sample_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_grid",
    "The integrity scan's batched grid signals in one pass (see _grid.c).", -1, methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__grid(void)
{
    PyObject *m = PyModule_Create(&moduledef);
    if (m != NULL && PyModule_AddIntConstant(m, "ABI", ABI) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
