/*
 * _unescape: the escape views' decoders (core/formats/secrets_decode.py) at C speed.
 *
 * Why this exists: `withhold` and `verify` read a line's percent-escapes and `\x` / HTML
 * character escapes decoded (a key spelled `%70%79%70%69...` is the key). In Python each
 * escape cost a dict lookup or a regex callback: ~0.13 s of CPU a MB of escapes (session 33's
 * review R16: a 120 MB log of `%41` lines took 15.3 s to verify, 17.7 s to withhold, against
 * issue 15's 30 s bar for any input). Here one pass over the bytes, one output buffer no
 * longer than the input, no Python object an escape.
 *
 * The output is the Python fallback's (`secrets_decode._unquote_py`, `_unescape_py`) byte for
 * byte; tests/formats/test_secrets_unescape.py runs both on every shape and on random bytes:
 * - unquote: each `%XX` (two hex digits, either case) is the byte 0xXX; any other `%` stays,
 *   and the scan goes on at the byte after it (`%%41` is `%A`).
 * - unescape: left to right, at each byte the first of (1) `\\xNN` (two backslashes) or
 *   `\xNN`, (2) `&#` then 2 or 3 decimal digits (as many as stand there, up to 3) then `;`,
 *   (3) `&#x` or `&#X` then two hex digits then `;`; one whose code is under 128 is that byte,
 *   one of 128 or more stays as written; the scan goes on after it (the regex `_ESC` of
 *   secrets_decode.py, replaced by `_char`).
 * - unicode: left to right, each `\\uXXXX` (two backslashes) or `\uXXXX` (four hex digits)
 *   whose code is under 128 is that byte, one of 128 or more stays as written; the scan goes
 *   on after it (the regex `_U`, replaced by `_u_char`; the `\u` view, session 34's secrets).
 * - json_unescape: the JSON escapes `secrets.unescape_json` decodes, left to right at each
 *   backslash, the first of: a UTF-16 pair `\uD[89AB]XX\uD[C-F]XX` (the character's UTF-8),
 *   `\uXXXX` (its UTF-8, a lone surrogate as three bytes: Python's "surrogatepass"), `\/`
 *   (`/`), `\\` (kept as written, both bytes); any other backslash stays. Each escape is at
 *   least as long as what it decodes to: the output is never longer than the input.
 * - pair_rows: `secrets_bytes._PAIR_ROWS` (session 36): the rows of two-digit bytes that
 *   follow a dump's piece, their end and their hex digits; see `pair_rows`.
 * - octal: left to right, each `\\NNN` (two backslashes) or `\NNN` whose 3 octal digits are a
 *   printable code (040-176), or `echo -e`'s `\0NNN` (a `0` then such 3 digits), is that byte;
 *   any other backslash stays (the regex `_O`, replaced by `_o_char`; the octal view, session
 *   37's secrets: 27 million regex callbacks cost ~10 s a 128 MiB log of octal escapes).
 * - ubrace: ES6's `\u{XX}` rewritten `\u00XX` (session 36, mendviews): each `\u{`, then up to
 *   4 zeros (as many as stand there), then [0-7] and a hex digit, then `}`, left to right; the
 *   regex `secrets_decode._U_BRACE` replaced by `\1u00\2` (whose template `re` expands in
 *   Python a match: 2.4 million calls and a 456 MB list of pieces a 16.7 MB line).
 * - joins: `secrets_join._BOUNDARY.sub(b"", data)` (session 36, mendviews): left to right, at
 *   each byte the first of: an optional backslash and a quote, then (1) up to 16 white space
 *   units (space, tab, CR, LF, or a backslash then n, r or t; as many as stand there, none
 *   given back), `+`, `..` or `||`, up to 16 more, (2) 1 to 16 such units, (3) nothing where
 *   the first quote is `'` and a double quote (escaped or not) follows, (4) nothing where it
 *   is `"` and `'` follows; then an optional backslash and a quote: the whole removed, the
 *   scan going on after it (the regex's empty alternatives tried at every quote cost ~47 s
 *   per 512 MiB of a shell's `'a'"b"`, review V5).
 * - decimal: `secrets_bytes.DECIMAL.search(data, pos, endpos)`'s (start, end) (session 36,
 *   mendviews): a number of 1-3 digits not inside a word, a number or a version (the byte before
 *   it no letter, digit, `_`, `.` or `-`, or an escaped line break before it), then 7 or more
 *   (as many as follow) of: up to 16 white space units, a comma, up to 16, 1-3 digits; each
 *   number ends where no letter, digit, `_` or `.` follows (the regex and its finditer cost
 *   ~0.5 s a 12 MB line of `100, 99, ` and were run twice a line, review V5).
 * - listed: `secrets_join.listed_view` (session 36): each list of string literals joined by
 *   an empty string (the regex `secrets_join._LISTED`, found left to right as `finditer`
 *   does) written as the one literal it makes, the rest of the line as it is; see `listed`.
 * - chars: `secrets_chars._decoded_py` (session 37, mendviews; review R3): an od -c /
 *   hexdump -c dump as `secrets_chars.DUMP` matched it (a JSON line's: `\\n` for od's `\n`,
 *   `\"` for a quote) read cell by cell: three spaces and a byte (or `\"`, or `\\`: GNU od's
 *   backslash, session 37 mendods) is that byte, two
 *   spaces and `\\` then od's letter, `0` or `\\` its byte, a space and three octal digits
 *   their value; an escaped line break (`\n`, `\r\n`) and up to 8 hex digits after it (a
 *   row's offset) are nothing. A regex callback and a bytes piece an escape cell cost ~75 s and
 *   500 MiB per 512 MiB of `  \\n` cells. A cell is 4+ bytes and makes one.
 * - dump_next: `secrets_chars.DUMP.finditer`'s next match of `least`+ cells (session 38, odc);
 *   see `dump_next`.
 * - dump_rows: the rows `secrets_bytes._NEXT` reads after a hex dump's first piece, one
 *   `_NEXT.match` after the other (session 39, dumps); see `dump_rows`.
 * - esc_run: the first run of 4 backslash escapes `secrets_decode`'s run patterns find
 *   (session 39, mixed); see `esc_run`.
 * - spelled_gate: `secrets_basen`'s two gates of a text in one pass, no copy (session 41,
 *   speed); see `spelled_gate`.
 * - gate_open: whether a needle of any of a spec's passes (a byte map, deleted bytes, needles;
 *   built by `secrets_gate`) is in a text: the decoded views' marker gate in one call (session
 *   44, speed); see `gate_open`.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define ABI 22

static signed char HEX[256];
/* A character of a run the reader's gate reads (`secrets_public._READER_RUN`): an ASCII
 * letter or digit, `_`, `-`, `+`, `=` (`/` and `.` end a run: paths, model ids). */
static unsigned char READER[256];
/* The characters of a base64 run (either alphabet) and of a hex run (`secrets_decode._runs`). */
static unsigned char B64RUN[256], HEXRUN[256];
/* `spelled_gate`'s classes: 1 base32's characters [A-Z0-9], 2 a dump's [0-9 \t-]. */
static unsigned char SPELLED[256];
/* Python's `\s` in a bytes pattern: space, tab, LF, VT, FF, CR (`listed`). */
static unsigned char LSPACE[256];

static void init_tables(void)
{
    memset(HEX, -1, sizeof HEX);
    for (int c = '0'; c <= '9'; c++)
        HEX[c] = (signed char)(c - '0');
    for (int c = 'a'; c <= 'f'; c++)
        HEX[c] = (signed char)(c - 'a' + 10);
    for (int c = 'A'; c <= 'F'; c++)
        HEX[c] = (signed char)(c - 'A' + 10);
    memset(READER, 0, sizeof READER);
    for (int c = 0; c < 128; c++)
        READER[c] = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                    || c == '_' || c == '-' || c == '+' || c == '=';
    memset(B64RUN, 0, sizeof B64RUN);
    memset(HEXRUN, 0, sizeof HEXRUN);
    for (int c = 0; c < 128; c++) {
        B64RUN[c] = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                    || c == '+' || c == '/' || c == '_' || c == '-';
        HEXRUN[c] = HEX[c] >= 0;
    }
    memset(SPELLED, 0, sizeof SPELLED);
    for (int c = 0; c < 128; c++)
        SPELLED[c] = (((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) ? 1 : 0)
                     | (((c >= '0' && c <= '9') || c == ' ' || c == '\t' || c == '-') ? 2 : 0);
    memset(LSPACE, 0, sizeof LSPACE);
    LSPACE[' '] = LSPACE['\t'] = LSPACE['\n'] = LSPACE['\r'] = LSPACE['\v'] = LSPACE['\f'] = 1;
}

/* The pair of hex digits at s[0], s[1] as a byte, or -1 (the caller checked both exist). */
static inline int hex_pair(const unsigned char *s)
{
    int hi = HEX[s[0]], lo = HEX[s[1]];
    return (hi < 0 || lo < 0) ? -1 : (hi << 4) | lo;
}

/* --- the decoders' one entry ---------------------------------------------------------------
 * A decoder is a body that reads s[0, n) and writes its output at `out` (room for n bytes: no
 * decoder's output is longer than its input), returning the end of what it wrote; `decode`
 * is its entry from Python: the buffer view, the n output bytes, their release and the
 * shrink to what was written, once for all (six entries repeated those lines: session 36's
 * stop, D1), and a body is a plain C call a later pass can run on bytes it holds. */
typedef char *(*decoder_body)(const unsigned char *s, Py_ssize_t n, char *out);

static PyObject *decode(PyObject *arg, decoder_body body)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, view.len);
    if (out == NULL) {
        PyBuffer_Release(&view);
        return NULL;
    }
    char *start = PyBytes_AS_STRING(out);
    char *end = body(view.buf, view.len, start);
    PyBuffer_Release(&view);
    if (_PyBytes_Resize(&out, end - start) < 0)
        return NULL;
    return out;
}

/* The METH_O entry `name` of the body `name_body`. */
#define DECODER(name)                                                                           \
    static PyObject *name(PyObject *self, PyObject *arg)                                        \
    {                                                                                            \
        return decode(arg, name##_body);                                                        \
    }

/* A finder (`decimal`, `reader_next`) looks in s[pos, n) and answers 1 with the span found,
 * or 0; `find` runs it on a parsed view, releases the view and answers (start, end) or None. */
typedef int (*span_finder)(const unsigned char *s, Py_ssize_t n, Py_ssize_t pos,
                           Py_ssize_t span[2]);

static PyObject *find(Py_buffer *view, Py_ssize_t n, Py_ssize_t pos, span_finder finder)
{
    Py_ssize_t span[2];
    int found = finder(view->buf, n, pos, span);
    PyBuffer_Release(view);
    if (!found)
        Py_RETURN_NONE;
    return Py_BuildValue("(nn)", span[0], span[1]);
}

/* `find` on the arguments (data, pos, endpos) of a finder's entry (`decimal`, `html_run`): one
 * parser of them (session 40). */
static PyObject *find_in(PyObject *args, span_finder finder)
{
    Py_buffer view;
    Py_ssize_t pos, hi;
    if (!PyArg_ParseTuple(args, "y*nn", &view, &pos, &hi))
        return NULL;
    return find(&view, hi < view.len ? hi : view.len, pos, finder);
}

static char *unquote_body(const unsigned char *s, Py_ssize_t n, char *out)
{
    Py_ssize_t i = 0;
    char *o = out;
    while (i < n) {
        const unsigned char *pct = memchr(s + i, '%', (size_t)(n - i));
        Py_ssize_t at = pct == NULL ? n : pct - s;
        memcpy(o, s + i, (size_t)(at - i));
        o += at - i;
        if (at >= n)
            break;
        int b = at + 2 < n ? hex_pair(s + at + 1) : -1;
        if (b >= 0) {
            *o++ = (char)b;
            i = at + 3;
        } else {
            *o++ = '%';
            i = at + 1;
        }
    }
    return o;
}

DECODER(unquote)

/* The length of the escape at s[i] (0 when none stands there) and its code in *code. */
static inline Py_ssize_t escape_at(const unsigned char *s, Py_ssize_t i, Py_ssize_t n, int *code)
{
    if (s[i] == '\\') {
        if (i + 4 < n && s[i + 1] == '\\' && s[i + 2] == 'x' && (*code = hex_pair(s + i + 3)) >= 0)
            return 5;
        if (i + 3 < n && s[i + 1] == 'x' && (*code = hex_pair(s + i + 2)) >= 0)
            return 4;
        return 0;
    }
    /* s[i] == '&' */
    if (i + 1 >= n || s[i + 1] != '#')
        return 0;
    Py_ssize_t d = 0;
    int v = 0;
    while (d < 3 && i + 2 + d < n && s[i + 2 + d] >= '0' && s[i + 2 + d] <= '9') {
        v = v * 10 + (s[i + 2 + d] - '0');
        d++;
    }
    if (d >= 2) {
        /* (3 digits then no `;`: 2 digits then the third digit, no `;` either) */
        if (i + 2 + d < n && s[i + 2 + d] == ';') {
            *code = v;
            return 3 + d;
        }
        return 0;
    }
    if (d == 0 && i + 5 < n && (s[i + 2] == 'x' || s[i + 2] == 'X') && s[i + 5] == ';'
        && (*code = hex_pair(s + i + 3)) >= 0)
        return 6;
    return 0;
}

/* What a character escape of `len` bytes at s[at] writes at o (`unescape`, `unicode`): its
 * byte when its code is under 128, the escape as written when not, and the one byte at s[at]
 * when no escape stands there (len 0); the end of what it wrote. */
static inline char *put_escape(const unsigned char *s, Py_ssize_t at, Py_ssize_t len, int code,
                               char *o)
{
    if (len == 0) {
        *o++ = (char)s[at];
    } else if (code < 128) {
        *o++ = (char)code;
    } else {
        memcpy(o, s + at, (size_t)len);
        o += len;
    }
    return o;
}

static char *unescape_body(const unsigned char *s, Py_ssize_t n, char *out)
{
    Py_ssize_t i = 0;
    char *o = out;
    while (i < n) {
        /* the next `\` or `&` (two memchr passes would each scan to the end: one loop) */
        Py_ssize_t at = i;
        while (at < n && s[at] != '\\' && s[at] != '&')
            at++;
        memcpy(o, s + i, (size_t)(at - i));
        o += at - i;
        if (at >= n)
            break;
        int code = 0;
        Py_ssize_t len = escape_at(s, at, n, &code);
        o = put_escape(s, at, len, code, o);
        i = at + (len == 0 ? 1 : len);
    }
    return o;
}

DECODER(unescape)

/* The length of the `\\uXXXX` or `\uXXXX` at s[i] (a backslash; 0 when none) and its code. */
static inline Py_ssize_t u_escape_at(const unsigned char *s, Py_ssize_t i, Py_ssize_t n, int *code)
{
    for (Py_ssize_t b = 2; b >= 1; b--) {  /* (two backslashes first, as the regex's `\\?`) */
        Py_ssize_t u = i + b - 1;
        if (u + 5 >= n || (b == 2 && s[i + 1] != '\\') || s[u + 1] != 'u')
            continue;
        int hi = hex_pair(s + u + 2), lo = hex_pair(s + u + 4);
        if (hi >= 0 && lo >= 0) {
            *code = (hi << 8) | lo;
            return b + 5;
        }
    }
    return 0;
}

/* The length of the escape at s[i] (a backslash; 0 when none) and its code in *code. */
typedef Py_ssize_t (*escape_finder)(const unsigned char *s, Py_ssize_t i, Py_ssize_t n,
                                    int *code);

/* A decoder of escapes that start with a backslash (`unicode`, `octal`): each backslash's
 * escape (`at`) written by `put_escape`, the scan going on after it. Inline, so that each
 * caller's finder is a direct call (the two bodies were one loop written twice). */
static inline char *backslash_body(const unsigned char *s, Py_ssize_t n, char *out,
                                   escape_finder at_escape)
{
    Py_ssize_t i = 0;
    char *o = out;
    while (i < n) {
        const unsigned char *bs = memchr(s + i, '\\', (size_t)(n - i));
        Py_ssize_t at = bs == NULL ? n : bs - s;
        memcpy(o, s + i, (size_t)(at - i));
        o += at - i;
        if (at >= n)
            break;
        int code = 0;
        Py_ssize_t len = at_escape(s, at, n, &code);
        o = put_escape(s, at, len, code, o);
        i = at + (len == 0 ? 1 : len);
    }
    return o;
}

static char *unicode_body(const unsigned char *s, Py_ssize_t n, char *out)
{
    return backslash_body(s, n, out, u_escape_at);
}

DECODER(unicode)

/* The length of the printable octal code (040-176, `secrets_decode._PRINTABLE_OCT`) at s[q]: 3
 * and its value in *code, or 0. */
static inline Py_ssize_t printable_oct(const unsigned char *s, Py_ssize_t q, Py_ssize_t n,
                                       int *code)
{
    if (q + 2 >= n || (s[q] != '0' && s[q] != '1') || s[q + 1] < '0' || s[q + 1] > '7'
        || s[q + 2] < '0' || s[q + 2] > '7')
        return 0;
    int v = (s[q] - '0') * 64 + (s[q + 1] - '0') * 8 + (s[q + 2] - '0');
    if (v < 32 || v > 126)
        return 0;
    *code = v;
    return 3;
}

/* The length of the octal escape at s[i] (a backslash; 0 when none): two backslashes first, as
 * the regex's `\\?`, then the code of 3 digits or a `0` and 3 (`echo -e`'s `\0NNN`). */
static inline Py_ssize_t o_escape_at(const unsigned char *s, Py_ssize_t i, Py_ssize_t n, int *code)
{
    for (Py_ssize_t b = 2; b >= 1; b--) {
        Py_ssize_t q = i + b;
        if (b == 2 && (i + 1 >= n || s[i + 1] != '\\'))
            continue;
        Py_ssize_t len = printable_oct(s, q, n, code);
        if (len == 0 && q < n && s[q] == '0')
            len = printable_oct(s, q + 1, n, code) ? 4 : 0;
        if (len)
            return b + len;
    }
    return 0;
}

static char *octal_body(const unsigned char *s, Py_ssize_t n, char *out)
{
    return backslash_body(s, n, out, o_escape_at);
}

DECODER(octal)

/* od's escape letter (after `\\`) -> its byte, 0 for a letter od does not write. */
static inline unsigned char od_escape(unsigned char c)
{
    switch (c) {
    case '0': return 0;
    case 'a': return 7;
    case 'b': return 8;
    case 'f': return 12;
    case 'n': return 10;
    case 'r': return 13;
    case 't': return 9;
    case 'v': return 11;
    default: return 0;
    }
}

/* `secrets_chars.DUMP`'s match -> the bytes it stands for (see the top, `chars`); bytes that
 * are no cell or break (never in a match) are skipped one at a time. */
static char *chars_body(const unsigned char *s, Py_ssize_t n, char *out)
{
    Py_ssize_t i = 0;
    char *o = out;
    while (i < n) {
        if (s[i] == '\\') {  /* an escaped line break, then a row's offset */
            if (i + 3 < n && s[i + 1] == 'r' && s[i + 2] == '\\' && s[i + 3] == 'n')
                i += 4;
            else if (i + 1 < n && s[i + 1] == 'n')
                i += 2;
            else {
                i++;
                continue;
            }
            for (int k = 0; k < 8 && i < n && HEX[s[i]] >= 0; k++)
                i++;
            continue;
        }
        if (s[i] != ' ' || i + 3 >= n) {
            i++;
            continue;
        }
        if (s[i + 1] != ' ') {  /* a space and three octal digits */
            *o++ = (char)(unsigned char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8
                                         + (s[i + 3] - '0'));
            i += 4;
        } else if (s[i + 2] == ' ') {  /* three spaces and the byte (a quote escaped) */
            if (s[i + 3] == '\\' && i + 4 < n && s[i + 4] == '"') {
                *o++ = '"';
                i += 5;
            } else if (s[i + 3] == '\\' && i + 4 < n && s[i + 4] == '\\') {
                *o++ = '\\';  /* GNU od's backslash, `   \` (JSON `   \\`) */
                i += 5;
            } else {
                *o++ = (char)s[i + 3];
                i += 4;
            }
        } else if (s[i + 2] == '\\' && s[i + 3] == '\\' && i + 4 < n) {  /* od's escape */
            if (s[i + 4] == '\\' && i + 5 < n && s[i + 5] == '\\') {
                *o++ = '\\';
                i += 6;
            } else {
                *o++ = (char)od_escape(s[i + 4]);
                i += 5;
            }
        } else {
            *o++ = (char)s[i + 3];
            i += 4;
        }
    }
    return o;
}

DECODER(chars)

/* --- dump_next: `secrets_chars.DUMP.finditer`'s next match of `least`+ cells ---------------
 * (session 38, odc; issue 15) The regex cost ~8 ns a byte of an od -c line of binary (~10 %
 * of odbin's withhold), each line read twice. Its pattern is deterministic: no two of
 * `_CELL`'s branches match at one place (four spaces; three spaces and a printable byte other
 * than `"` and `\`, or `\"`, or two backslashes; two spaces, two backslashes and od's letter,
 * `0` or two more; a space and [0-3][0-7][0-7]), every repeat possessive, so one left-to-right
 * read is the match: 4+ cells, then while a line break (`\n`, `\r\n`, escaped), an optional
 * offset (6-8 hex digits, as many as stand there, taken only when a cell follows them) and
 * 1+ cells follow, those. A place where fewer than 4 cells stand matches nothing (the search
 * goes on at the next space); a match of fewer than `least` cells is skipped whole, as
 * `finditer` goes on at its end. Linear: at most 4 cells are read at a place that matches
 * nothing, and a match is read once. */

/* The length of `_CELL` at s[i], or 0. */
static inline Py_ssize_t cell_at(const unsigned char *s, Py_ssize_t i, Py_ssize_t n)
{
    if (i + 3 >= n || s[i] != ' ')
        return 0;
    unsigned char b = s[i + 1], c = s[i + 2], d = s[i + 3];
    if (b != ' ')  /* a space and three octal digits, the first 0-3 */
        return b >= '0' && b <= '3' && c >= '0' && c <= '7' && d >= '0' && d <= '7' ? 4 : 0;
    if (c == ' ') {
        if (d == ' ' || (d > ' ' && d <= '~' && d != '"' && d != '\\'))
            return 4;  /* four spaces; three and a printable byte */
        return d == '\\' && i + 4 < n && (s[i + 4] == '"' || s[i + 4] == '\\') ? 5 : 0;
    }
    if (c != '\\' || d != '\\' || i + 4 >= n)
        return 0;
    unsigned char e = s[i + 4];  /* od's escape: two spaces, `\\`, a letter or `\\` */
    if (e == '0' || e == 'a' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't'
        || e == 'v')
        return 5;
    return e == '\\' && i + 5 < n && s[i + 5] == '\\' ? 6 : 0;
}

/* The end of the cells from s[i] on, their count added to *cells. */
static inline Py_ssize_t cells_from(const unsigned char *s, Py_ssize_t i, Py_ssize_t n,
                                    Py_ssize_t *cells)
{
    Py_ssize_t len;
    while ((len = cell_at(s, i, n)) > 0) {
        i += len;
        (*cells)++;
    }
    return i;
}

/* The end of `DUMP`'s match at s[i] and its cells in *cells, or -1 when none is there. */
static Py_ssize_t dump_at(const unsigned char *s, Py_ssize_t i, Py_ssize_t n, Py_ssize_t *cells)
{
    *cells = 0;
    i = cells_from(s, i, n, cells);
    if (*cells < 4)
        return -1;
    while (i + 1 < n && s[i] == '\\') {
        Py_ssize_t j;
        if (s[i + 1] == 'n')
            j = i + 2;
        else if (s[i + 1] == 'r' && i + 3 < n && s[i + 2] == '\\' && s[i + 3] == 'n')
            j = i + 4;
        else
            break;
        Py_ssize_t h = 0;
        while (h < 8 && j + h < n && HEX[s[j + h]] >= 0)
            h++;
        if (h >= 6 && cell_at(s, j + h, n) > 0)
            j += h;
        else if (cell_at(s, j, n) == 0)
            break;
        i = cells_from(s, j, n, cells);
    }
    return i;
}

static int dump_find(const unsigned char *s, Py_ssize_t n, Py_ssize_t pos, Py_ssize_t least,
                     Py_ssize_t span[2])
{
    Py_ssize_t i = pos < 0 ? 0 : pos;
    while (i + 16 <= n) {  /* (4 cells of 4 bytes at least) */
        const unsigned char *sp = memchr(s + i, ' ', (size_t)(n - i));
        if (sp == NULL)
            return 0;
        i = sp - s;
        Py_ssize_t cells, end = dump_at(s, i, n, &cells);
        if (end < 0) {
            i++;
        } else if (cells >= least) {
            span[0] = i;
            span[1] = end;
            return 1;
        } else {
            i = end;
        }
    }
    return 0;
}

static PyObject *dump_next(PyObject *self, PyObject *args)
{
    Py_buffer view;
    Py_ssize_t pos, least;
    if (!PyArg_ParseTuple(args, "y*nn", &view, &pos, &least))
        return NULL;
    Py_ssize_t span[2];
    int found = dump_find(view.buf, view.len, pos, least, span);
    PyBuffer_Release(&view);
    if (!found)
        Py_RETURN_NONE;
    return Py_BuildValue("(nn)", span[0], span[1]);
}

/* `secrets_decode._U_BRACE.sub(rb"\1u00\2", data)` (see the top): the output is never longer
 * than the input (`u{41}` is `u0041`, `u{0041}` shorter). */
static char *ubrace_body(const unsigned char *s, Py_ssize_t n, char *out)
{
    Py_ssize_t i = 0;
    char *o = out;
    while (i < n) {
        const unsigned char *br = memchr(s + i, '{', (size_t)(n - i));
        Py_ssize_t at = br == NULL ? n : br - s;
        memcpy(o, s + i, (size_t)(at - i));
        o += at - i;
        if (at >= n)
            break;
        if (at > 1 && s[at - 1] == 'u' && s[at - 2] == '\\') {
            Py_ssize_t k = at + 1, z = 0;
            while (z < 4 && k < n && s[k] == '0') {
                z++;
                k++;
            }
            if (k + 2 < n && s[k] >= '0' && s[k] <= '7' && HEX[s[k + 1]] >= 0
                    && s[k + 2] == '}') {
                *o++ = '0';
                *o++ = '0';
                *o++ = (char)s[k];
                *o++ = (char)s[k + 1];
                i = k + 3;
                continue;
            }
        }
        *o++ = '{';
        i = at + 1;
    }
    return o;
}

DECODER(ubrace)

static inline int is_quote(unsigned char c)
{
    return c == '"' || c == '\'';
}

/* One white space unit at i (`secrets_join._WS`: a space, tab, CR, LF or an escaped `\n` `\r`
 * `\t`): its length, 0 when none. */
static inline Py_ssize_t ws_unit(const unsigned char *s, Py_ssize_t i, Py_ssize_t n)
{
    if (i >= n)
        return 0;
    unsigned char c = s[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
        return 1;
    if (c == '\\' && i + 1 < n && (s[i + 1] == 'n' || s[i + 1] == 'r' || s[i + 1] == 't'))
        return 2;
    return 0;
}

/* The end of up to 16 white space units at i (`_WS{0,16}+`): the separators of a joins'
 * literals, of a decimal list's numbers and of a listed join's items, one rule. */
static inline Py_ssize_t ws16(const unsigned char *s, Py_ssize_t i, Py_ssize_t n)
{
    for (int k = 0; k < 16; k++) {
        Py_ssize_t l = ws_unit(s, i, n);
        if (l == 0)
            break;
        i += l;
    }
    return i;
}

/* The end of `\\?["']` at k, or -1. */
static inline Py_ssize_t quote_at(const unsigned char *s, Py_ssize_t k, Py_ssize_t n)
{
    if (k < n && s[k] == '\\' && k + 1 < n && is_quote(s[k + 1]))
        return k + 2;
    return (k < n && is_quote(s[k])) ? k + 1 : -1;
}

/* The end of a `_BOUNDARY` match at p, or -1 (see the top). */
static Py_ssize_t boundary_at(const unsigned char *s, Py_ssize_t p, Py_ssize_t n)
{
    Py_ssize_t q = quote_at(s, p, n);
    if (q < 0)
        return -1;
    unsigned char first = s[q - 1];
    Py_ssize_t k = ws16(s, q, n), end;
    Py_ssize_t op = -1;
    if (k < n && s[k] == '+')
        op = k + 1;
    else if (k + 1 < n && ((s[k] == '.' && s[k + 1] == '.') || (s[k] == '|' && s[k + 1] == '|')))
        op = k + 2;
    if (op >= 0 && (end = quote_at(s, ws16(s, op, n), n)) >= 0)
        return end;
    if (k > q && (end = quote_at(s, k, n)) >= 0)
        return end;
    if (first == '\'') {
        Py_ssize_t d = (q < n && s[q] == '\\') ? q + 1 : q;
        if (d < n && s[d] == '"')
            return d + 1;
    } else if (q < n && s[q] == '\'') {
        return q + 1;
    }
    return -1;
}

static char *joins_body(const unsigned char *s, Py_ssize_t n, char *out)
{
    Py_ssize_t i = 0;
    char *o = out;
    while (i < n) {
        unsigned char c = s[i];
        if (c == '\\' || is_quote(c)) {
            Py_ssize_t end = boundary_at(s, i, n);
            if (end >= 0) {
                i = end;
                continue;
            }
        }
        *o++ = (char)c;
        i++;
    }
    return o;
}

DECODER(joins)

/* [0-9A-Za-z_.]: what may not follow a decimal list's number */
static inline int dec_word(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'
           || c == '.';
}

/* The end of 1-3 digits at k (as many as stand there, up to 3) that no word character
 * follows, or -1. */
static inline Py_ssize_t dec_number(const unsigned char *s, Py_ssize_t k, Py_ssize_t n)
{
    Py_ssize_t e = k;
    while (e < n && e - k < 3 && s[e] >= '0' && s[e] <= '9')
        e++;
    if (e == k || (e < n && dec_word(s[e])))
        return -1;
    return e;
}

/* The first list in s[pos, n): 1 and its span, or 0. */
static int decimal_find(const unsigned char *s, Py_ssize_t n, Py_ssize_t pos, Py_ssize_t span[2])
{
    for (Py_ssize_t p = pos < 0 ? 0 : pos; p < n; p++) {
        if (s[p] < '0' || s[p] > '9')
            continue;
        if (p >= 1) {
            unsigned char b = s[p - 1];
            int word = dec_word(b) || b == '-';
            int escaped = p >= 2 && s[p - 2] == '\\' && (b == 'n' || b == 'r' || b == 't');
            if (word && !escaped)
                continue;
        }
        Py_ssize_t end = dec_number(s, p, n);
        if (end < 0)
            continue;
        int items = 0;
        for (;;) {
            Py_ssize_t k = ws16(s, end, n);
            if (k >= n || s[k] != ',')
                break;
            k = dec_number(s, ws16(s, k + 1, n), n);
            if (k < 0)
                break;
            end = k;
            items++;
        }
        if (items >= 7) {
            span[0] = p;
            span[1] = end;
            return 1;
        }
    }
    return 0;
}

static PyObject *decimal(PyObject *self, PyObject *args)
{
    return find_in(args, decimal_find);
}

/* The bytes of the list at s[start, end) (`decimal_find`'s span: numbers of 1-3 digits, no
 * other digit between them), or None when a number is past 255 (`_decimal_bytes`). */
static PyObject *decimal_values(const unsigned char *s, Py_ssize_t start, Py_ssize_t end)
{
    Py_ssize_t count = 0;
    for (Py_ssize_t k = start; k < end; k++)
        count += (s[k] >= '0' && s[k] <= '9') && (k == start || s[k - 1] < '0' || s[k - 1] > '9');
    PyObject *got = PyBytes_FromStringAndSize(NULL, count);
    if (got == NULL)
        return NULL;
    unsigned char *w = (unsigned char *)PyBytes_AS_STRING(got);
    for (Py_ssize_t k = start; k < end;) {
        if (s[k] < '0' || s[k] > '9') {
            k++;
            continue;
        }
        int v = 0;
        while (k < end && s[k] >= '0' && s[k] <= '9')
            v = v * 10 + (s[k++] - '0');
        if (v > 255) {
            Py_DECREF(got);
            Py_RETURN_NONE;
        }
        *w++ = (unsigned char)v;
    }
    return got;
}

/* decimal_lists(data): (start, end, bytes or None) of each list of decimal bytes in data, left
 * to right, each searched from the last one's end: `secrets_bytes._decimal_views`' loop of
 * `decimal` and `_decimal_bytes` in one call a line (a search, a translate and an orjson parse
 * a list cost ~5 us of Python: 46 lists a 25 KB line of String.fromCharCode text, QA s36 T6). */
static PyObject *decimal_lists(PyObject *self, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    Py_ssize_t pos = 0, span[2];
    PyObject *out = PyList_New(0);
    while (out != NULL && decimal_find(view.buf, view.len, pos, span)) {
        pos = span[1];
        PyObject *got = decimal_values(view.buf, span[0], span[1]);
        PyObject *item = got == NULL ? NULL : Py_BuildValue("(nnN)", span[0], span[1], got);
        if (item == NULL || PyList_Append(out, item) < 0)
            Py_CLEAR(out);
        Py_XDECREF(item);
    }
    PyBuffer_Release(&view);
    return out;
}

static inline int hex4(const unsigned char *s)
{
    int hi = hex_pair(s), lo = hex_pair(s + 2);
    return (hi < 0 || lo < 0) ? -1 : (hi << 8) | lo;
}

static char *json_unescape_body(const unsigned char *s, Py_ssize_t n, char *out)
{
    Py_ssize_t i = 0;
    unsigned char *o = (unsigned char *)out;
    while (i < n) {
        const unsigned char *bs = memchr(s + i, '\\', (size_t)(n - i));
        Py_ssize_t at = bs == NULL ? n : bs - s;
        memcpy(o, s + i, (size_t)(at - i));
        o += at - i;
        if (at >= n)
            break;
        if (at + 1 < n && (s[at + 1] == '/' || s[at + 1] == '\\')) {
            if (s[at + 1] == '/') {
                *o++ = '/';
            } else {
                *o++ = '\\';
                *o++ = '\\';
            }
            i = at + 2;
            continue;
        }
        int code = (at + 5 < n && s[at + 1] == 'u') ? hex4(s + at + 2) : -1;
        if (code < 0) {
            *o++ = '\\';
            i = at + 1;
            continue;
        }
        i = at + 6;
        if (code >= 0xD800 && code <= 0xDBFF && at + 11 < n && s[at + 6] == '\\'
            && s[at + 7] == 'u') {
            int low = hex4(s + at + 8);
            if (low >= 0xDC00 && low <= 0xDFFF) {
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                i = at + 12;
            }
        }
        if (code < 0x80) {
            *o++ = (unsigned char)code;
        } else if (code < 0x800) {
            *o++ = (unsigned char)(0xC0 | (code >> 6));
            *o++ = (unsigned char)(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            *o++ = (unsigned char)(0xE0 | (code >> 12));
            *o++ = (unsigned char)(0x80 | ((code >> 6) & 0x3F));
            *o++ = (unsigned char)(0x80 | (code & 0x3F));
        } else {
            *o++ = (unsigned char)(0xF0 | (code >> 18));
            *o++ = (unsigned char)(0x80 | ((code >> 12) & 0x3F));
            *o++ = (unsigned char)(0x80 | ((code >> 6) & 0x3F));
            *o++ = (unsigned char)(0x80 | (code & 0x3F));
        }
    }
    return (char *)o;
}

DECODER(json_unescape)

/* Whether the `len` bytes at s are hex whose first 16 bytes are printable ASCII (32-126):
 * `secrets_decode.hex_text`. */
static inline int hex_text_at(const unsigned char *s, Py_ssize_t len)
{
    if (len < 32)
        return 0;
    for (int k = 0; k < 16; k++) {
        int b = hex_pair(s + 2 * k);
        if (b < 32 || b >= 127)
            return 0;
    }
    return 1;
}

/* reader_next(data, pos): (start, end) of the first maximal run of READER characters at or
 * after `pos` (a run boundary: 0, the end of a run, or a byte no run holds), 16 to 4,095
 * long, that the reader's gate asks (`secrets_public.reader_spots`): it holds an ASCII digit
 * and an upper-case letter, or is hex of text (`hex_text_at`), or follows a backslash and is
 * hex of text past its first byte (`\n676c...`: `xxd -p` output in a JSON string); None when
 * no run is. The Python loop touched every run of 16+ (~4 us each: a 128 MiB `xxd -p` log
 * has 2 million), this one only the runs it asks. */
static int reader_find(const unsigned char *s, Py_ssize_t n, Py_ssize_t pos, Py_ssize_t span[2])
{
    Py_ssize_t i = pos < 0 ? 0 : pos;
    while (i < n) {
        while (i < n && !READER[s[i]])
            i++;
        Py_ssize_t start = i;
        int digit = 0, upper = 0;
        while (i < n && READER[s[i]]) {
            digit |= s[i] >= '0' && s[i] <= '9';
            upper |= s[i] >= 'A' && s[i] <= 'Z';
            i++;
        }
        Py_ssize_t len = i - start;
        if (len < 16 || len >= 4096)
            continue;
        if ((digit && upper) || hex_text_at(s + start, len)
            || (start > 0 && s[start - 1] == '\\' && hex_text_at(s + start + 1, len - 1))) {
            span[0] = start;
            span[1] = i;
            return 1;
        }
    }
    return 0;
}

static PyObject *reader_next(PyObject *self, PyObject *args)
{
    Py_buffer view;
    Py_ssize_t pos;
    if (!PyArg_ParseTuple(args, "y*n", &view, &pos))
        return NULL;
    return find(&view, view.len, pos, reader_find);
}

/* runs(data, kind, least): (start, end) of each maximal run of `least` or more characters of
 * one alphabet, in order: kind 0 base64's (either alphabet: ASCII letters, digits, `+/_-`),
 * kind 1 hex digits (`secrets_decode._runs`, whose Python maps each character with `translate`
 * and looks for a run with a substring search: two passes and a copy of the line, then ~1.5 us
 * of Python a run; a 16 KiB `xxd -p` observation holds 270 base64 runs). */
static PyObject *runs(PyObject *self, PyObject *args)
{
    Py_buffer view;
    int kind;
    Py_ssize_t least;
    if (!PyArg_ParseTuple(args, "y*in", &view, &kind, &least))
        return NULL;
    const unsigned char *table = kind == 1 ? HEXRUN : B64RUN;
    const unsigned char *s = view.buf;
    Py_ssize_t n = view.len, i = 0;
    if (least < 1)
        least = 1;
    PyObject *out = PyList_New(0);
    while (out != NULL && i < n) {
        while (i < n && !table[s[i]])
            i++;
        Py_ssize_t start = i;
        while (i < n && table[s[i]])
            i++;
        if (i - start >= least) {
            PyObject *pair = Py_BuildValue("(nn)", start, i);
            if (pair == NULL || PyList_Append(out, pair) < 0)
                Py_CLEAR(out);
            Py_XDECREF(pair);
        }
    }
    PyBuffer_Release(&view);
    return out;
}

/* --- pair_rows: a dump's rows of bytes alone (secrets_bytes._PAIR_ROWS) -----------------------
 * From pos, as many rows as follow, each (the regex, read as the parser below: every part is
 * possessive or has one way) `:` or `-` optional, a line break (CR LF, LF, or escaped `\r\n`,
 * `\n`), 0-16 spaces or tabs, two hex digits, then up to 63 of (one or two spaces, `:` or `-`,
 * then two hex digits), and no ASCII letter, digit or `_` after. Returns (end, the rows' hex
 * digits): what a row spans holds no other hex digit. One `re` call a dump cost ~0.5 us a
 * row (~6 s per 512 MiB of openssl colon hex). */
/* The end of a dump's row break at s[i] (CR LF, LF, or as a JSON line writes them, `\r\n`,
 * `\n`), or -1: `pair_row`'s and `row_after_column`'s (one helper, session 40). */
static Py_ssize_t row_break(const unsigned char *s, Py_ssize_t i, Py_ssize_t n)
{
    if (i + 1 < n && s[i] == '\r' && s[i + 1] == '\n')
        return i + 2;
    if (i < n && s[i] == '\n')
        return i + 1;
    if (i + 3 < n && s[i] == '\\' && s[i + 1] == 'r' && s[i + 2] == '\\' && s[i + 3] == 'n')
        return i + 4;
    if (i + 1 < n && s[i] == '\\' && s[i + 1] == 'n')
        return i + 2;
    return -1;
}

static Py_ssize_t pair_row(const unsigned char *s, Py_ssize_t i, Py_ssize_t n)
{
    if (i < n && (s[i] == ':' || s[i] == '-'))
        i++;
    if ((i = row_break(s, i, n)) < 0)
        return -1;
    for (int k = 0; k < 16 && i < n && (s[i] == ' ' || s[i] == '\t'); k++)
        i++;
    if (!(i + 1 < n && HEXRUN[s[i]] && HEXRUN[s[i + 1]]))
        return -1;
    i += 2;
    for (int k = 0; k < 63; k++) {
        Py_ssize_t j = i;
        if (j < n && s[j] == ' ')
            j += (j + 1 < n && s[j + 1] == ' ') ? 2 : 1;
        else if (j < n && (s[j] == ':' || s[j] == '-'))
            j++;
        else
            break;
        if (!(j + 1 < n && HEXRUN[s[j]] && HEXRUN[s[j + 1]]))
            break;
        i = j + 2;
    }
    if (i < n && ((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'z')
                  || (s[i] >= 'A' && s[i] <= 'Z') || s[i] == '_'))
        return -1;
    return i;
}

static PyObject *pair_rows(PyObject *self, PyObject *args)
{
    Py_buffer view;
    Py_ssize_t pos;
    if (!PyArg_ParseTuple(args, "y*n", &view, &pos))
        return NULL;
    const unsigned char *s = view.buf;
    Py_ssize_t n = view.len, from = pos < 0 ? 0 : pos > n ? n : pos, i = from, end;
    while ((end = pair_row(s, i, n)) >= 0)
        i = end;
    Py_ssize_t count = 0;
    for (Py_ssize_t k = from; k < i; k++)
        count += HEXRUN[s[k]];
    PyObject *digits = PyBytes_FromStringAndSize(NULL, count);
    if (digits != NULL) {
        char *w = PyBytes_AS_STRING(digits);
        for (Py_ssize_t k = from; k < i; k++)
            if (HEXRUN[s[k]])
                *w++ = (char)s[k];
    }
    PyBuffer_Release(&view);
    return digits == NULL ? NULL : Py_BuildValue("(nN)", i, digits);
}

/* --- dump_rows: a dump's rows after its first piece (secrets_bytes._NEXT, row after row) ------
 * From pos, as many rows as `_NEXT.match` reads one after the other (`secrets_bytes.
 * _dump_runs_py`), each found as the regex's backtracking search finds it: its choices tried
 * in the regex's order (`[:-]?`; the ASCII column `  ?|...|`, then `   ?` and 1-16 characters,
 * then none; the line break; the indent; the offset `hex{4,8}` then `:` or 2-4 blanks, then
 * `hex{6,8}` and one blank, then none; the bytes: two-digit, four-digit, then 2-8 digit
 * groups), the first whole match kept. Each part whose repeat is possessive, or whose greedy
 * repeat cannot give back a byte that would let the rest match (a class that excludes what
 * follows it), is one choice. Returns (end, the rows' groups' hex digits). Session 39, dumps:
 * a `_NEXT.match` and its Python a row cost ~1 us, ~20 s per 512 MiB of `od -x` and `hexdump
 * -C` rows (QA s38 T6). */
#define IS_HEX(c) (HEXRUN[(unsigned char)(c)])
#define IS_BLANK(c) ((c) == ' ' || (c) == '\t')
#define IS_WORDCH(c) (((c) >= '0' && (c) <= '9') || ((c) >= 'a' && (c) <= 'z') \
                      || ((c) >= 'A' && (c) <= 'Z') || (c) == '_')

static Py_ssize_t hex_len(const unsigned char *s, Py_ssize_t i, Py_ssize_t n, Py_ssize_t cap)
{
    Py_ssize_t k = 0;
    while (k < cap && i + k < n && IS_HEX(s[i + k]))
        k++;
    return k;
}

/* The bytes group (`_NEXT`'s group 1) at h: its end, or -1 (each alternative in turn, each
 * followed by no ASCII letter, digit or `_`). */
static Py_ssize_t row_group(const unsigned char *s, Py_ssize_t h, Py_ssize_t n)
{
    Py_ssize_t e;
    /* two-digit bytes, up to 63 more after `  ?`, `:` or `-` */
    if (hex_len(s, h, n, 2) == 2) {
        e = h + 2;
        for (int k = 0; k < 63; k++) {
            Py_ssize_t j = e;
            if (j < n && s[j] == ' ')
                j += (j + 1 < n && s[j + 1] == ' ' && hex_len(s, j + 2, n, 2) == 2) ? 2 : 1;
            else if (j < n && (s[j] == ':' || s[j] == '-'))
                j++;
            else
                break;
            if (hex_len(s, j, n, 2) != 2)
                break;
            e = j + 2;
        }
        if (!(e < n && IS_WORDCH(s[e])))
            return e;
    }
    /* four digits, up to 15 more groups of 2-4 after a space */
    if (hex_len(s, h, n, 4) == 4) {
        e = h + 4;
        for (int k = 0; k < 15; k++) {
            Py_ssize_t q;
            if (!(e < n && s[e] == ' ') || (q = hex_len(s, e + 1, n, 4)) < 2)
                break;
            e += 1 + q;
        }
        if (!(e < n && IS_WORDCH(s[e])))
            return e;
    }
    /* 2-8 digits, up to 7 more groups of 2-8 after a space */
    Py_ssize_t q = hex_len(s, h, n, 8);
    if (q >= 2) {
        e = h + q;
        for (int k = 0; k < 7; k++) {
            Py_ssize_t r;
            if (!(e < n && s[e] == ' ') || (r = hex_len(s, e + 1, n, 8)) < 2)
                break;
            e += 1 + r;
        }
        if (!(e < n && IS_WORDCH(s[e])))
            return e;
    }
    return -1;
}

/* After the column (at e): the break, the indent, the offset choices, the group. Returns the
 * group's end and sets *gs to its start, or -1. */
static Py_ssize_t row_after_column(const unsigned char *s, Py_ssize_t e, Py_ssize_t n,
                                   Py_ssize_t *gs)
{
    if ((e = row_break(s, e, n)) < 0)
        return -1;
    for (int k = 0; k < 16 && e < n && IS_BLANK(s[e]); k++)
        e++;
    Py_ssize_t r = hex_len(s, e, n, 9), tries[3], t = 0;
    if (r >= 4 && r <= 8) {  /* hex{4,8} then `:` and 0-4 blanks, or 2-4 blanks */
        Py_ssize_t j = e + r, b = 0;
        if (j < n && s[j] == ':') {
            j++;
            while (b < 4 && j < n && IS_BLANK(s[j])) { j++; b++; }
            tries[t++] = j;
        } else {
            while (b < 4 && j + b < n && IS_BLANK(s[j + b]))
                b++;
            if (b >= 2)
                tries[t++] = j + b;
        }
    }
    if (r >= 6 && r <= 8 && e + r < n && IS_BLANK(s[e + r]))  /* hex{6,8} and a blank */
        tries[t++] = e + r + 1;
    tries[t++] = e;  /* no offset */
    for (int k = 0; k < t; k++) {
        Py_ssize_t end = row_group(s, tries[k], n);
        if (end >= 0) {
            *gs = tries[k];
            return end;
        }
    }
    return -1;
}

/* A column character at j (either form of the column): a byte but LF and `\`, or `\` then
 * `"`, `\` or `/` (a JSON line's escapes); the end of it, or -1. */
static Py_ssize_t column_char(const unsigned char *s, Py_ssize_t j, Py_ssize_t n)
{
    if (j >= n || s[j] == '\n')
        return -1;
    if (s[j] != '\\')
        return j + 1;
    return j + 1 < n && (s[j + 1] == '"' || s[j + 1] == '\\' || s[j + 1] == '/') ? j + 2 : -1;
}

/* The column's second form: the end of up to 16 column characters from i (at least one),
 * or -1. */
static Py_ssize_t column_chars(const unsigned char *s, Py_ssize_t i, Py_ssize_t n)
{
    Py_ssize_t k = 0, j = i, e;
    while (k < 16 && (e = column_char(s, j, n)) >= 0) {
        j = e;
        k++;
    }
    return k >= 1 ? j : -1;
}

/* One `_NEXT.match` at i: the group's end, its start in *gs; -1 when none. */
static Py_ssize_t next_row(const unsigned char *s, Py_ssize_t i, Py_ssize_t n, Py_ssize_t *gs)
{
    Py_ssize_t j0 = (i < n && (s[i] == ':' || s[i] == '-')) ? i + 1 : i, cols[20], c = 0, end;
    /* `  ?\|(?:[^\n\\]|\\["\\/]){1,16}\|` (greedy: its ends followed by `|`, longest first;
     * a JSON line's column writes `"` and `\` escaped, and `hexdump -C` prints `|` in it too) */
    if (j0 < n && s[j0] == ' ') {
        Py_ssize_t k = j0 + 1;
        if (k + 1 < n && s[k] == ' ' && s[k + 1] == '|')
            k++;
        if (k < n && s[k] == '|') {
            Py_ssize_t ends[16], m = 0, j = k + 1;
            while (m < 16 && (j = column_char(s, j, n)) >= 0)
                ends[m++] = j;
            while (m-- > 0)
                if (ends[m] < n && s[ends[m]] == '|')
                    cols[c++] = ends[m] + 1;
        }
    }
    /* `   ?` then 1-16 column characters (possessive): three spaces, then two */
    if (j0 + 1 < n && s[j0] == ' ' && s[j0 + 1] == ' ') {
        Py_ssize_t e;
        if (j0 + 2 < n && s[j0 + 2] == ' ' && (e = column_chars(s, j0 + 3, n)) >= 0)
            cols[c++] = e;
        if ((e = column_chars(s, j0 + 2, n)) >= 0)
            cols[c++] = e;
    }
    cols[c++] = j0;  /* no column */
    for (int k = 0; k < c; k++)
        if ((end = row_after_column(s, cols[k], n, gs)) >= 0)
            return end;
    return -1;
}

static PyObject *dump_rows(PyObject *self, PyObject *args)
{
    Py_buffer view;
    Py_ssize_t pos;
    if (!PyArg_ParseTuple(args, "y*n", &view, &pos))
        return NULL;
    const unsigned char *s = view.buf;
    Py_ssize_t n = view.len, i = pos < 0 ? 0 : pos > n ? n : pos, count = 0, gs, ge;
    /* first pass: the end and the digits' count; second: the digits */
    Py_ssize_t from = i;
    while ((ge = next_row(s, i, n, &gs)) >= 0) {
        for (Py_ssize_t k = gs; k < ge; k++)
            count += IS_HEX(s[k]);
        i = ge;
    }
    Py_ssize_t end = i;
    PyObject *digits = PyBytes_FromStringAndSize(NULL, count);
    if (digits != NULL) {
        char *w = PyBytes_AS_STRING(digits);
        i = from;
        while (i < end && (ge = next_row(s, i, n, &gs)) >= 0) {
            for (Py_ssize_t k = gs; k < ge; k++)
                if (IS_HEX(s[k]))
                    *w++ = (char)s[k];
            i = ge;
        }
    }
    PyBuffer_Release(&view);
    return digits == NULL ? NULL : Py_BuildValue("(nN)", end, digits);
}

/* --- listed: the listed-join view (secrets_join._LISTED, _listed_view_py) --------------------
 * The regex, read as the parser below (every part of it is possessive or cannot backtrack into
 * another way: a literal's content stops at its quote, white space or a backslash, and none of
 * those can be content; `,?` before a closing `]` or `)` has one way), at each position left to
 * right, as `finditer`: JavaScript `[` WS ITEMS `]` WS `.join(` WS EMPTY WS `)`, or Python
 * EMPTY `.join(` WS `[` or `(` WS ITEMS `]` or `)` WS `)`; ITEMS = LIT (WS `,` WS LIT){1,255}
 * WS `,`? WS; WS = 0-16 of a space, tab, CR, LF or an escaped `\n` `\r` `\t`; LIT = `\`? `"`
 * 1-256 bytes but `"`, white space (`\s`: also VT, FF) and `\` then `\`? `"`, or `'` 1-256
 * bytes but `'`, white space and `\` then `'`; EMPTY = `\`?`"\`?"` or `''`. A match is
 * written `"` + each literal's content without `"`, `'` and `,` + `"` (what the Python's
 * replace and translate leave). Session 35's regex and per-match Python cost ~100 ns a byte
 * on a line made of tiny lists (45 s per 512 MiB). */

/* One literal at i: its end, its content at [*cs, *ce); -1 when none stands there. It may be
 * empty (`_ITEM`, session 36, review V4: one `""` ended a list and hid the key after it). */
static Py_ssize_t lit_at(const unsigned char *s, Py_ssize_t i, Py_ssize_t n, Py_ssize_t *cs,
                         Py_ssize_t *ce)
{
    unsigned char q = '"';
    if (i < n && s[i] == '\'') {
        q = '\'';
    } else if (i < n && s[i] == '\\') {
        i++;
    }
    if (i >= n || s[i] != q)
        return -1;
    Py_ssize_t start = ++i;
    while (i < n && i - start <= 256 && s[i] != q && s[i] != '\\' && !LSPACE[s[i]])
        i++;
    if (i - start > 256)
        return -1;
    *cs = start;
    *ce = i;
    if (q == '"' && i < n && s[i] == '\\')
        i++;
    return (i < n && s[i] == q) ? i + 1 : -1;
}

/* ITEMS at i: its end, or -1. */
static Py_ssize_t items_at(const unsigned char *s, Py_ssize_t i, Py_ssize_t n)
{
    Py_ssize_t cs, ce, j = lit_at(s, i, n, &cs, &ce);
    if (j < 0)
        return -1;
    int count = 0;
    while (count < 4095) {  /* (4,096 items: `_ITEMS`) */
        Py_ssize_t k = ws16(s, j, n);
        if (k >= n || s[k] != ',')
            break;
        k = lit_at(s, ws16(s, k + 1, n), n, &cs, &ce);
        if (k < 0)
            break;
        j = k;
        count++;
    }
    if (count < 1)
        return -1;
    j = ws16(s, j, n);
    if (j < n && s[j] == ',')
        j++;
    return ws16(s, j, n);
}

/* EMPTY at i: its end, or -1. */
static Py_ssize_t empty_at(const unsigned char *s, Py_ssize_t i, Py_ssize_t n)
{
    if (i + 1 < n && s[i] == '\'' && s[i + 1] == '\'')
        return i + 2;
    for (int k = 0; k < 2; k++) {
        if (i + 1 < n && s[i] == '\\' && s[i + 1] == '"')
            i += 2;
        else if (i < n && s[i] == '"')
            i += 1;
        else
            return -1;
    }
    return i;
}

static inline int join_at(const unsigned char *s, Py_ssize_t i, Py_ssize_t n)
{
    return i + 6 <= n && memcmp(s + i, ".join(", 6) == 0;
}

/* A match at p: its end and its items' span, or -1. */
static Py_ssize_t listed_at(const unsigned char *s, Py_ssize_t p, Py_ssize_t n, Py_ssize_t *lo,
                            Py_ssize_t *hi)
{
    Py_ssize_t j, e;
    if (s[p] == '[') {
        *lo = ws16(s, p + 1, n);
        if ((e = items_at(s, *lo, n)) < 0 || e >= n || s[e] != ']')
            return -1;
        *hi = e;
        j = ws16(s, e + 1, n);
        if (!join_at(s, j, n) || (j = empty_at(s, ws16(s, j + 6, n), n)) < 0)
            return -1;
        j = ws16(s, j, n);
        return (j < n && s[j] == ')') ? j + 1 : -1;
    }
    if ((j = empty_at(s, p, n)) < 0 || !join_at(s, j, n))
        return -1;
    j = ws16(s, j + 6, n);
    if (j >= n || (s[j] != '[' && s[j] != '('))
        return -1;
    *lo = ws16(s, j + 1, n);
    if ((e = items_at(s, *lo, n)) < 0 || e >= n || (s[e] != ']' && s[e] != ')'))
        return -1;
    *hi = e;
    j = ws16(s, e + 1, n);
    return (j < n && s[j] == ')') ? j + 1 : -1;
}

/* The view of s[0, n) and in *first the column of its first list + 1; None (a new reference)
 * when no list stands there; NULL when out of memory. */
static PyObject *listed_view(const unsigned char *s, Py_ssize_t n, Py_ssize_t *first)
{
    Py_ssize_t at = 0, p = 0, lo = 0, hi = 0;
    PyObject *out = NULL;
    char *w = NULL;
    while (p < n) {
        unsigned char c = s[p];
        Py_ssize_t end = -1;
        if (c == '[' || c == '"' || c == '\\' || c == '\'')
            end = listed_at(s, p, n, &lo, &hi);
        if (end < 0) {
            p++;
            continue;
        }
        if (out == NULL) {  /* a list is never longer written as its literal: n bytes do */
            *first = p + 1;
            if ((out = PyBytes_FromStringAndSize(NULL, n)) == NULL)
                return NULL;
            w = PyBytes_AS_STRING(out);
        }
        memcpy(w, s + at, (size_t)(p - at));
        w += p - at;
        *w++ = '"';
        Py_ssize_t i = lo, cs, ce;
        while (i < hi) {  /* each literal of the items, in order */
            if (s[i] != '"' && s[i] != '\'' && s[i] != '\\') {
                i++;
                continue;
            }
            Py_ssize_t next = lit_at(s, i, hi, &cs, &ce);
            if (next < 0) {  /* (the backslash of an escaped `\n`, `\r` or `\t`) */
                i++;
                continue;
            }
            i = next;
            for (Py_ssize_t k = cs; k < ce; k++) {
                unsigned char b = s[k];
                if (b != '"' && b != '\'' && b != ',')
                    *w++ = (char)b;
            }
        }
        *w++ = '"';
        at = p = end;
    }
    if (out == NULL)
        Py_RETURN_NONE;
    memcpy(w, s + at, (size_t)(n - at));
    w += n - at;
    if (_PyBytes_Resize(&out, w - PyBytes_AS_STRING(out)) < 0)
        return NULL;
    return out;
}

/* listed(data): (the view, the column of the first list + 1) or None (no list). */
static PyObject *listed(PyObject *self, PyObject *arg)
{
    Py_buffer view;
    Py_ssize_t first = 0;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    PyObject *out = listed_view(view.buf, view.len, &first);
    PyBuffer_Release(&view);
    if (out == NULL || out == Py_None)
        return out;
    return Py_BuildValue("(Nn)", out, first);
}

/* --- esc_run: the escape views' runs (session 39, mixed; review s38 R6) ------------------------
 * `secrets_decode`'s run patterns `_ESC_RUN` (its `\x` alternative), `_U_RUN`, `_O_RUN` and
 * `_MIX_RUN`: `search(data, pos, endpos)`'s (start, end), or None. Each is a backslash, then 4
 * escapes, each an optional second backslash and a code of the kinds asked (`kinds`, a mask:
 * RUN_X `x[2-7]H`, RUN_U `uHHHH`, RUN_U00 `u00[2-7]H`, RUN_O a printable octal code, 3 digits
 * or `0` and 3), the first three each followed by up to 3 filler bytes (no backslash, quote or
 * `\s`: as many as stand there, none given back) and a backslash; RUN_TAIL: filler after the
 * fourth too (`_U_RUN`). No alternative of a code can match where another does (each starts
 * with its own byte, and an octal code of 3 digits and one of 4 differ in their first two), so
 * a run at a backslash is one, found without backtracking; the leftmost is the regex's. The
 * regexes tried each backslash of a line at ~100 ns: four of them ~1.0 s a 12 MB line of
 * `\101x\x41` and ~1.6 s of `\101\x41\u0041A\n` (review s38 R6: 76-151 s per 512 MiB). */
#define RUN_X 1
#define RUN_U 2
#define RUN_O 4
#define RUN_U00 8
#define RUN_TAIL 16

static inline int run_filler(unsigned char c)
{
    return c != '\\' && c != '"' && c != '\'' && !LSPACE[c];
}

/* The length of the code of a kind in `kinds` at s[q], or 0. */
static inline Py_ssize_t run_code(const unsigned char *s, Py_ssize_t q, Py_ssize_t n, int kinds)
{
    if (q >= n)
        return 0;
    unsigned char c = s[q];
    int code;
    if (c == 'x') {
        if ((kinds & RUN_X) && q + 2 < n && s[q + 1] >= '2' && s[q + 1] <= '7'
            && HEX[s[q + 2]] >= 0)
            return 3;
    } else if (c == 'u') {
        if (q + 4 >= n)
            return 0;
        if ((kinds & RUN_U) && HEX[s[q + 1]] >= 0 && HEX[s[q + 2]] >= 0 && HEX[s[q + 3]] >= 0
            && HEX[s[q + 4]] >= 0)
            return 5;
        if ((kinds & RUN_U00) && s[q + 1] == '0' && s[q + 2] == '0' && s[q + 3] >= '2'
            && s[q + 3] <= '7' && HEX[s[q + 4]] >= 0)
            return 5;
    } else if ((kinds & RUN_O) && (c == '0' || c == '1')) {
        if (printable_oct(s, q, n, &code))
            return 3;
        if (c == '0' && printable_oct(s, q + 1, n, &code))
            return 4;
    }
    return 0;
}

/* The end of the escape at s[i] (a backslash), an optional second backslash first, or -1. */
static inline Py_ssize_t run_escape(const unsigned char *s, Py_ssize_t i, Py_ssize_t n, int kinds)
{
    Py_ssize_t len;
    if (i + 1 < n && s[i + 1] == '\\' && (len = run_code(s, i + 2, n, kinds)) > 0)
        return i + 2 + len;
    if ((len = run_code(s, i + 1, n, kinds)) > 0)
        return i + 1 + len;
    return -1;
}

static inline Py_ssize_t run_fill(const unsigned char *s, Py_ssize_t j, Py_ssize_t n)
{
    for (int f = 0; f < 3 && j < n && run_filler(s[j]); f++)
        j++;
    return j;
}

/* The index of the first byte `c` in s[i, n), or -1: where `esc_run` and `html_run` try next. */
static inline Py_ssize_t next_of(const unsigned char *s, Py_ssize_t i, Py_ssize_t n, int c)
{
    const unsigned char *at = i < n ? memchr(s + i, c, (size_t)(n - i)) : NULL;
    return at == NULL ? -1 : at - s;
}

static int esc_run_find(const unsigned char *s, Py_ssize_t n, Py_ssize_t pos, int kinds,
                        Py_ssize_t span[2])
{
    Py_ssize_t i = pos < 0 ? 0 : pos;
    while ((i = next_of(s, i, n, '\\')) >= 0) {
        Py_ssize_t j = run_escape(s, i, n, kinds), stop = i + 1;
        int count = j < 0 ? 0 : 1;
        while (count > 0 && count < 4) {
            stop = run_fill(s, j, n);
            if (stop >= n || s[stop] != '\\' || (j = run_escape(s, stop, n, kinds)) < 0)
                break;
            count++;
        }
        if (count == 4) {
            span[0] = i;
            span[1] = (kinds & RUN_TAIL) ? run_fill(s, j, n) : j;
            return 1;
        }
        /* A run that failed at `stop` fails there from each backslash before it too (each is
         * an escape's start, or its second backslash, and reads on as this one did, fewer
         * escapes counted): the next try is at `stop`, one try an escape, not up to 4. */
        i = stop;
    }
    return 0;
}

static PyObject *esc_run(PyObject *self, PyObject *args)
{
    Py_buffer view;
    Py_ssize_t pos, hi;
    int kinds;
    if (!PyArg_ParseTuple(args, "y*nni", &view, &pos, &hi, &kinds))
        return NULL;
    Py_ssize_t span[2];
    int found = esc_run_find(view.buf, hi < view.len ? hi : view.len, pos, kinds, span);
    PyBuffer_Release(&view);
    if (!found)
        Py_RETURN_NONE;
    return Py_BuildValue("(nn)", span[0], span[1]);
}

/* --- html_run: `secrets_runs.HTML_RUN`, 4 HTML character references in a row (session 40) ---
 * `&#` then 2-3 decimal digits and `;`, 4 in a row; or `&#x` (or `X`) and 2 hex digits and `;`,
 * 4 in a row: `search(data, pos, endpos)`'s (start, end), or None. The first reference decides
 * the kind (a digit or `x`), so a run at an `&` is found without backtracking; a run that
 * failed at its k-th reference fails from each reference before it too, so the next try is
 * there, one try a reference (as `esc_run`). The regex tried each `&` at ~100 ns and read each
 * reference of a group of 3 up to 3 times: ~7 % of `withhold` on QA s39 T7's e_mixlong, whose
 * lines hold a group of 3 every 15 characters. */
static inline Py_ssize_t html_ref(const unsigned char *s, Py_ssize_t i, Py_ssize_t n, int hex)
{
    if (!(i + 4 < n && s[i] == '&' && s[i + 1] == '#'))
        return 0;
    if (hex)
        return (s[i + 2] == 'x' || s[i + 2] == 'X') && i + 5 < n && HEX[s[i + 3]] >= 0
               && HEX[s[i + 4]] >= 0 && s[i + 5] == ';' ? 6 : 0;
    if (!(s[i + 2] >= '0' && s[i + 2] <= '9' && s[i + 3] >= '0' && s[i + 3] <= '9'))
        return 0;
    if (s[i + 4] == ';')
        return 5;
    return s[i + 4] >= '0' && s[i + 4] <= '9' && i + 5 < n && s[i + 5] == ';' ? 6 : 0;
}

static int html_run_find(const unsigned char *s, Py_ssize_t n, Py_ssize_t pos, Py_ssize_t span[2])
{
    Py_ssize_t i = pos < 0 ? 0 : pos;
    while ((i = next_of(s, i, n, '&')) >= 0) {
        int hex = i + 2 < n && (s[i + 2] == 'x' || s[i + 2] == 'X');
        Py_ssize_t j = i, len;
        int count = 0;
        while (count < 4 && (len = html_ref(s, j, n, hex)) > 0) {
            j += len;
            count++;
        }
        if (count == 4) {
            span[0] = i;
            span[1] = j;
            return 1;
        }
        i = count ? j : i + 1;
    }
    return 0;
}

static PyObject *html_run(PyObject *self, PyObject *args)
{
    return find_in(args, html_run_find);
}

/* --- spelled_gate: whether a base32 run or a dump of numbers may be in a text ------------------
 * Bit 1: a run of 16 of base32's characters ([A-Z0-9]) starts where `secrets_basen._B32` may
 * start one: at the text's start, after a byte of none of base64's alphabet ([A-Za-z0-9+/]),
 * or after such a byte and one of `n`, `r`, `t` (an escaped break's letter): the run's first
 * 16 characters follow an `x`, an `xc` or nothing in `_B32_MAP` (`_b32_open`). Bit 2: a run
 * of 48 digits, spaces, tabs or `-` (`secrets_radix.radix_in`). Two `translate`s (copies of
 * the text) and three substring searches of every view of every line cost e_mixlong's lines
 * ~15 % and e_b64gz's ~5 % (session 41). */
#define B64_CHAR(c) (B64RUN[c] && (c) != '_' && (c) != '-')  /* [A-Za-z0-9+/] */

/* Whether `_B32` may start a run at s[j] (its lookbehind): j is the text's start, or s[j - 1]
 * is no base64 character, or an escaped break's letter after one. */
static int b32_may_start(const unsigned char *s, Py_ssize_t j)
{
    if (j == 0 || !B64_CHAR(s[j - 1]))
        return 1;
    unsigned char b = s[j - 1];
    return (b == 'n' || b == 'r' || b == 't') && j > 1 && !B64_CHAR(s[j - 2]);
}

/* Whether s[0, n) holds `least` bytes in a row of the class `bit` of SPELLED (from a place
 * `b32_may_start` allows, when `b32`). A window's last byte is looked at first: outside the
 * class, the window holds no such run and the next one starts after it (base64 and prose
 * skip ~`least` bytes a look; a byte loop mispredicted on base64's random case, 2.4x
 * main's translate). Each byte is read at most twice. */
static int spelled_run(const unsigned char *s, Py_ssize_t n, unsigned char bit,
                       Py_ssize_t least, int b32)
{
    Py_ssize_t i = 0;  /* i == 0 or s[i - 1] is outside the class */
    while (i + least <= n) {
        if (!(SPELLED[s[i + least - 1]] & bit)) {
            i += least;
            continue;
        }
        Py_ssize_t j = i + least - 1, k = i + least;
        while (j > i && (SPELLED[s[j - 1]] & bit))
            j--;  /* (s[j] starts the run: s[j - 1] is outside, or j == i) */
        while (k < n && k - j < least && (SPELLED[s[k]] & bit))
            k++;
        if (k - j >= least) {
            if (!b32 || b32_may_start(s, j))
                return 1;
            while (k < n && (SPELLED[s[k]] & bit))
                k++;
        }
        i = k + 1;  /* (s[k] is outside, or k == n) */
    }
    return 0;
}

static PyObject *spelled_gate(PyObject *self, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    const unsigned char *s = view.buf;
    int got = spelled_run(s, view.len, 1, 16, 1) | spelled_run(s, view.len, 2, 48, 0) << 1;
    PyBuffer_Release(&view);
    return PyLong_FromLong(got);
}

/* --- gate_open: whether any pass of a spec finds one of its needles in a text --------------------
 * `secrets_gate` builds the spec from the tables the decoded views' marker gate asks
 * (`secrets_public._view_may_hold_py`): for each test, a pass that finds a needle in the text
 * mapped by a table (`bytes.translate(table, deleted)`), as the test's necessary condition.
 * Spec: u32 passes, u16 pairs[65536], u16 ones[256], then each pass: u32 kind, u32 size,
 * u32 classes, u32 back, u32 ahead, u8 class[256] (a raw byte's class), then by kind:
 * - GATE_RUN: `size` bytes in a row of class 1 (a needle of one repeated byte: a run); class
 *   GATE_DELETED: a byte skipped, as `translate` deletes it. A loop of its own, a window's
 *   last byte looked at first (prose skips ~`size` bytes a look).
 * - GATE_DFA: u16 next[size * classes], an Aho-Corasick automaton of `size` states over the
 *   classes, each cell the next state times `classes` (its row's offset), GATE_OPEN where a
 *   needle ends; a deleted byte's class leads each state to itself. The automaton is stepped
 *   only near the places its needles may be: where the text's two bytes at i (one, at its
 *   end) have the pass's bit in `pairs` (`ones`), from i - back to i + ahead (each needle has
 *   one pair of its bytes there: `secrets_gate` picks its rarest). Stepped on from where it
 *   stopped when that is inside the window, so each byte is stepped at most once a pass. A
 *   pass with deleted bytes (no such window) has no bit and is stepped over the whole text,
 *   its first state's bytes skipped in a loop of their own.
 * The spec is built in Python (one place for the tables); this only runs it, checking every
 * offset it reads against the spec's sizes (a malformed spec is a ValueError). One automaton
 * stepped over every byte cost ~4-5 ns a byte (each step waits on the last's load). */
#define GATE_DFA 0u
#define GATE_RUN 1u
#define GATE_OPEN 0xFFFFu
#define GATE_DELETED 255u
#define GATE_DFAS 16
#define GATE_HEAD (4 + 2 * 65536 + 2 * 256)

/* Whether s[0, n) holds `least` bytes of class 1 in a row (deleted bytes skipped). */
static int gate_run(const unsigned char *cls, const unsigned char *s, Py_ssize_t n,
                    Py_ssize_t least, int deletes)
{
    if (deletes) {
        Py_ssize_t run = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            unsigned char c = cls[s[i]];
            if (c == GATE_DELETED)
                continue;
            run = c == 1 ? run + 1 : 0;
            if (run >= least)
                return 1;
        }
        return 0;
    }
    Py_ssize_t i = 0;  /* i == 0 or s[i - 1] is outside the class */
    while (i + least <= n) {
        if (cls[s[i + least - 1]] != 1) {
            i += least;
            continue;
        }
        Py_ssize_t j = i + least - 1, k = i + least;
        while (j > i && cls[s[j - 1]] == 1)
            j--;
        while (k < n && k - j < least && cls[s[k]] == 1)
            k++;
        if (k - j >= least)
            return 1;
        i = k + 1;  /* (s[k] is outside, or k == n) */
    }
    return 0;
}

typedef struct {
    const unsigned char *cls;
    const uint16_t *next;
    uint32_t last;  /* the last row's offset: no cell read may point past it */
    Py_ssize_t back, ahead, at;  /* the window; `at`: where the automaton stopped */
    uint32_t state;
    long pass;
} gate_dfa;

/* Steps `d` over s[from, to): 1 when a needle ends there, -1 on a malformed cell. */
static int gate_step(gate_dfa *d, const unsigned char *s, Py_ssize_t from, Py_ssize_t to)
{
    uint32_t state = d->state;
    for (Py_ssize_t i = from; i < to; i++) {
        uint32_t next = d->next[state + d->cls[s[i]]];
        if (next > d->last)
            return next == GATE_OPEN ? 1 : -1;
        state = next;
    }
    d->state = state;
    d->at = to;
    return 0;
}

/* Steps `d` over the whole text, its first state's bytes skipped apart (a pass with deleted
 * bytes: the decimal list's digits are rare in prose). */
static int gate_whole(gate_dfa *d, const unsigned char *s, Py_ssize_t n)
{
    unsigned char stay[256];
    for (int b = 0; b < 256; b++)
        stay[b] = d->next[d->cls[b]] == 0;
    uint32_t state = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (state == 0)
            while (i < n && stay[s[i]])
                i++;
        if (i == n)
            break;
        uint32_t next = d->next[state + d->cls[s[i]]];
        if (next > d->last)
            return next == GATE_OPEN ? 1 : -1;
        state = next;
    }
    return 0;
}

/* The first pass of `spec` found to open on `s[0, n)` (>= 0), -1 when none does, -2 when the
 * spec is malformed. */
static long gate_scan(const unsigned char *p, Py_ssize_t len, const unsigned char *s,
                      Py_ssize_t n)
{
    const unsigned char *end = p + len;
    uint32_t passes;
    gate_dfa dfa[GATE_DFAS];
    int dfas = 0;
    uint32_t windowed = 0;
    if (len < GATE_HEAD || ((uintptr_t)p & 1))
        return -2;
    memcpy(&passes, p, 4);
    const uint16_t *pairs = (const uint16_t *)(p + 4), *ones = pairs + 65536;
    p += GATE_HEAD;
    for (uint32_t k = 0; k < passes; k++) {
        uint32_t head[5];
        if (end - p < 20 + 256)
            return -2;
        memcpy(head, p, 20);
        const unsigned char *cls = p + 20;
        p += 20 + 256;
        uint32_t kind = head[0], size = head[1], classes = head[2];
        if (kind == GATE_RUN) {
            if (size == 0)
                return -2;
            if (gate_run(cls, s, n, (Py_ssize_t)size, memchr(cls, GATE_DELETED, 256) != NULL))
                return (long)k;
            continue;
        }
        size_t cells = (size_t)size * classes;
        if (kind != GATE_DFA || size == 0 || classes == 0 || classes > 256 || cells >= GATE_OPEN
            || dfas == GATE_DFAS || (size_t)(end - p) < cells * 2)
            return -2;
        unsigned char top = 0;
        for (int b = 0; b < 256; b++)
            top = cls[b] > top ? cls[b] : top;
        if (top >= classes)
            return -2;
        gate_dfa *d = &dfa[dfas];
        d->cls = cls;
        d->next = (const uint16_t *)p;
        d->last = (uint32_t)(cells - classes);
        d->back = (Py_ssize_t)head[3];
        d->ahead = (Py_ssize_t)head[4];
        d->at = -1;
        d->state = 0;
        d->pass = (long)k;
        p += cells * 2;
        if (d->ahead == 0) {  /* (no window: the whole text) */
            int got = gate_whole(d, s, n);
            if (got)
                return got > 0 ? (long)k : -2;
            continue;
        }
        windowed |= 1u << dfas;
        dfas++;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        uint32_t bits = ones[s[i]] | (i + 1 < n ? pairs[(unsigned)s[i] << 8 | s[i + 1]] : 0);
        bits &= windowed;
        while (bits) {
            int b = __builtin_ctz(bits);
            bits &= bits - 1;
            gate_dfa *d = &dfa[b];
            Py_ssize_t lo = i > d->back ? i - d->back : 0;
            Py_ssize_t hi = n - i > d->ahead ? i + d->ahead : n;
            if (d->at < lo) {
                d->at = lo;
                d->state = 0;
            }
            if (d->at < hi) {
                int got = gate_step(d, s, d->at, hi);
                if (got)
                    return got > 0 ? d->pass : -2;
            }
        }
    }
    return -1;
}

static PyObject *gate_open(PyObject *self, PyObject *args)
{
    Py_buffer spec, text;
    if (!PyArg_ParseTuple(args, "y*y*", &spec, &text))
        return NULL;
    long got = gate_scan(spec.buf, spec.len, text.buf, text.len);
    PyBuffer_Release(&spec);
    PyBuffer_Release(&text);
    if (got == -2) {
        PyErr_SetString(PyExc_ValueError, "malformed gate spec");
        return NULL;
    }
    return PyLong_FromLong(got);
}

static PyMethodDef methods[] = {
    {"unquote", unquote, METH_O, "The bytes with each %XX escape decoded (secrets_decode)."},
    {"unescape", unescape, METH_O,
     "The bytes with each \\xNN, \\\\xNN, &#NNN; and &#xNN; of a code under 128 decoded."},
    {"unicode", unicode, METH_O,
     "The bytes with each \\uXXXX and \\\\uXXXX of a code under 128 decoded."},
    {"octal", octal, METH_O,
     "The bytes with each \\NNN, \\\\NNN (and \\0NNN) of a printable code (040-176) decoded."},
    {"chars", chars, METH_O,
     "The bytes an od -c / hexdump -c dump (secrets_chars.DUMP's match) stands for."},
    {"dump_next", dump_next, METH_VARARGS,
     "(start, end) of the next od -c dump (secrets_chars.DUMP) of least+ cells in data at or "
     "after pos, as finditer finds them, or None."},
    {"ubrace", ubrace, METH_O,
     "The bytes with each u{XX} (up to 4 zeros first) of a code under 128 written u00XX."},
    {"joins", joins, METH_O,
     "The bytes with each place two string literals meet removed (secrets_join._BOUNDARY)."},
    {"decimal", decimal, METH_VARARGS,
     "(start, end) of the first list of decimal bytes in data[pos:endpos] (secrets_bytes.DECIMAL), "
     "or None."},
    {"decimal_lists", decimal_lists, METH_O,
     "(start, end, bytes or None) of each list of decimal bytes in data, left to right "
     "(secrets_bytes._decimal_views)."},
    {"json_unescape", json_unescape, METH_O,
     "The bytes with their JSON \\uXXXX (UTF-16 pairs too) and \\/ escapes decoded."},
    {"runs", runs, METH_VARARGS,
     "(start, end) of each maximal run of least+ base64 (kind 0) or hex (kind 1) characters."},
    {"reader_next", reader_next, METH_VARARGS,
     "(start, end) of the next run of 16-4,095 the reader's gate asks at or after pos, or None."},
    {"dump_rows", dump_rows, METH_VARARGS,
     "(end, hex digits) of the rows `secrets_bytes._NEXT` reads one after the other from pos."},
    {"pair_rows", pair_rows, METH_VARARGS,
     "(end, hex digits) of the rows of two-digit bytes at pos (secrets_bytes._PAIR_ROWS)."},
    {"esc_run", esc_run, METH_VARARGS,
     "(start, end) of the first run of 4 backslash escapes of `kinds` (1 \\x, 2 \\u, 4 octal, "
     "8 \\u00, 16 filler after the last) in data[pos:endpos] (secrets_decode's run patterns), "
     "or None."},
    {"html_run", html_run, METH_VARARGS,
     "(start, end) of the first run of 4 HTML character references (&#NN; or &#xHH;) in "
     "data[pos:endpos] (secrets_runs.HTML_RUN), or None."},
    {"listed", listed, METH_O,
     "(the view with each list of literals joined by an empty string as its literal, the "
     "column of the first + 1), or None (secrets_join.listed_view)."},
    {"spelled_gate", spelled_gate, METH_O,
     "1 when a base32 run may start in data (secrets_basen._b32_open), | 2 when a run of 48 "
     "digits, spaces, tabs or - is there (secrets_radix.radix_in)."},
    {"gate_open", gate_open, METH_VARARGS,
     "The first pass of spec (secrets_gate) that finds one of its needles in data, or -1."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_unescape",
                                       "The escape views' decoders at C speed.", -1, methods};

PyMODINIT_FUNC PyInit__unescape(void)
{
    init_tables();
    PyObject *m = PyModule_Create(&moduledef);
    if (m != NULL && PyModule_AddIntConstant(m, "ABI", ABI) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
