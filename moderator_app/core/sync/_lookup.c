/*
 * _lookup: the sync fit's score sums (core/sync/align.py) in one pass, bit for bit as numpy
 * computes them (issue 13's cost: the analysis may add at most 20 % to the scan's time).
 *
 * Why this exists: every fit, drift search and shuffled log of the sync analysis asks for
 * score[r] = sum over actions j of table[index(offset[r] + x[j])], where index(v) is
 * ceil(v / res - base) clipped onto the table (`align.Lookup.index`, `np.take(mode="clip")`).
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

#define ABI 1
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

static PyMethodDef methods[] = {
    {"sums", sums, METH_VARARGS, sums_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_lookup",
    "The sync fit's score sums in one pass (see _lookup.c).", -1, methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__lookup(void)
{
    PyObject *m = PyModule_Create(&moduledef);
    if (m != NULL && PyModule_AddIntConstant(m, "ABI", ABI) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
