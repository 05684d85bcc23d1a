/*
 * The checks of plain model_responses and actions in C (issue 15, "every shape <= 2x"): a log
 * made mostly of small actions spent ~2 us per action in Python. Included by _skim.c after
 * _skim_table.h (the table these checks read and fill).
 */

/* ------------------------------------------------------------------ responses and actions */
/* LogChecker._response's and _action's checks for lines of plain shape whose checks pass:
 * each returns 1 when it did the line (no finding, the table updated), 0 when the line must
 * go to Python, which then words any finding; nothing is changed then. Plain: ids, `call`,
 * `name` and `model` strings without escapes; `args` null, absent or a flat object of ASCII
 * names and strings without escapes, booleans, null and safe integers, whose canonical JSON
 * (RFC 8785) is the sorted members as written. The `data` bytes are valid JSON without a
 * repeated member (line_object said so). */

#define ARGS_MAX 16
#define BLOB_MAX 1024
#define ACTIONS_MAX 64

typedef struct {
    Span name;
    Span args[ARGS_MAX][2]; /* [name, value as written] */
    int nargs;
    int have_args;
} Action;

/* At least one byte from `!` to `~`: Python's str.strip() leaves it, so the string is not
 * blank (`call.strip()`, `name.strip()`). */
static int not_blank(Span v)
{
    for (size_t i = 0; i < v.n; i++)
        if (v.p[i] > 0x20 && v.p[i] < 0x7F)
            return 1;
    return 0;
}

/* A string without escapes, its content in *out. */
static int plain_string(S *s, Span *out)
{
    int esc;
    return s->p < s->end && *s->p == '"' && string(s, out, &esc) == 0 && !esc ? 0 : NO;
}

/* An integer that orjson reads as an int and writes back the same way, within JCS's exact
 * range (|v| <= 2^53 - 1): no fraction, no exponent, no `-0`. */
static int plain_safe_int(S *s)
{
    const unsigned char *p = s->p, *end = s->end;
    int neg = p < end && *p == '-';
    p += neg;
    const unsigned char *d0 = p;
    while (p < end && is_digit(*p))
        p++;
    size_t n = (size_t)(p - d0);
    if (n == 0 || n > 16 || (d0[0] == '0' && (n > 1 || neg)))
        return NO;
    if (p < end && (*p == '.' || *p == 'e' || *p == 'E'))
        return NO;
    long long v = 0;
    for (const unsigned char *q = d0; q < p; q++)
        v = v * 10 + (*q - '0');
    if (v > 9007199254740991LL)
        return NO;
    s->p = p;
    return 0;
}

/* Past `"name":` to the value; the name in *k. */
static int member_name(S *s, Span *k)
{
    int esc;
    if (s->p >= s->end || *s->p != '"' || string(s, k, &esc) != 0)
        return NO;
    ws(s);
    if (s->p >= s->end || *s->p != ':')
        return NO;
    s->p++;
    ws(s);
    return s->p < s->end ? 0 : NO;
}

/* After a member's value: past a `,` (1: another member follows) or at the end (0). */
static int member_next(S *s)
{
    ws(s);
    if (s->p < s->end && *s->p == ',') {
        s->p++;
        ws(s);
        return 1;
    }
    return 0;
}

static int is_key(Span k, const char *word, size_t n)
{
    return k.n == n && memcmp(k.p, word, n) == 0;
}

/* `args`: null or a flat object of plain values. */
static int plain_args(S *s, Action *a)
{
    a->have_args = 1;
    if (*s->p == 'n')
        return literal(s, "null", 4);
    if (*s->p != '{')
        return NO;
    s->p++;
    ws(s);
    if (s->p < s->end && *s->p == '}') {
        s->p++;
        return 0;
    }
    do {
        Span k, sv;
        if (a->nargs == ARGS_MAX || member_name(s, &k) != 0)
            return NO;
        for (size_t i = 0; i < k.n; i++)
            if (k.p[i] >= 0x80 || k.p[i] == '\\')
                return NO;
        const unsigned char *v0 = s->p;
        int r;
        switch (*s->p) {
        case '"':
            r = plain_string(s, &sv);
            break;
        case 't':
            r = literal(s, "true", 4);
            break;
        case 'f':
            r = literal(s, "false", 5);
            break;
        case 'n':
            r = literal(s, "null", 4);
            break;
        default:
            r = plain_safe_int(s);
        }
        if (r != 0)
            return NO;
        a->args[a->nargs][0] = k;
        a->args[a->nargs][1].p = v0;
        a->args[a->nargs][1].n = (size_t)(s->p - v0);
        a->nargs++;
    } while (member_next(s));
    if (s->p >= s->end || *s->p != '}')
        return NO;
    s->p++;
    return 0;
}

/* An object holding `name` and `args` (and, when call != NULL, `call`); other members are
 * passed over, as the Python checks pass over them. */
static int plain_action(S *s, Action *a, Span *call)
{
    a->name.p = NULL;
    a->nargs = a->have_args = 0;
    if (call != NULL)
        call->p = NULL;
    if (s->p >= s->end || *s->p != '{')
        return NO;
    s->p++;
    ws(s);
    if (s->p < s->end && *s->p == '}')
        return NO; /* no name */
    do {
        Span k;
        if (member_name(s, &k) != 0)
            return NO;
        if (is_key(k, "name", 4)) {
            if (plain_string(s, &a->name) != 0)
                return NO;
        } else if (call != NULL && is_key(k, "call", 4)) {
            if (plain_string(s, call) != 0)
                return NO;
        } else if (is_key(k, "args", 4)) {
            if (plain_args(s, a) != 0)
                return NO;
        } else if (value(s, 3, NULL) != 0) {
            return NO;
        }
    } while (member_next(s));
    if (s->p >= s->end || *s->p != '}')
        return NO;
    s->p++;
    return a->name.p != NULL && not_blank(a->name) ? 0 : NO;
}

static int span_key_cmp(const void *x, const void *y)
{
    const Span *a = x, *b = y; /* [name, value] pairs, by name's bytes */
    size_t n = a->n < b->n ? a->n : b->n;
    int c = memcmp(a->p, b->p, n);
    return c ? c : (a->n > b->n) - (a->n < b->n);
}

/* The 8-byte digest of the canonical `["name",{"k":v,...}]` (what actions.ActionDigests
 * makes of it through `Responses.digest`). */
static int action_hash(const Responses *R, Action *a, unsigned char *d)
{
    unsigned char blob[BLOB_MAX];
    size_t n = 0, need = a->name.n + 8;
    for (int i = 0; i < a->nargs; i++)
        need += a->args[i][0].n + a->args[i][1].n + 4;
    if (need > BLOB_MAX)
        return NO;
    qsort(a->args, (size_t)a->nargs, sizeof a->args[0], span_key_cmp);
    blob[n++] = '[';
    blob[n++] = '"';
    memcpy(blob + n, a->name.p, a->name.n);
    n += a->name.n;
    memcpy(blob + n, "\",{", 3);
    n += 3;
    for (int i = 0; i < a->nargs; i++) {
        if (i)
            blob[n++] = ',';
        blob[n++] = '"';
        memcpy(blob + n, a->args[i][0].p, a->args[i][0].n);
        n += a->args[i][0].n;
        blob[n++] = '"';
        blob[n++] = ':';
        memcpy(blob + n, a->args[i][1].p, a->args[i][1].n);
        n += a->args[i][1].n;
    }
    blob[n++] = '}';
    blob[n++] = ']';
    siphash(blob, n, R->k0, R->k1, d, ACT_HASH);
    return 0;
}

/* An action: its response known, in time (log.action_late), and one of the actions it asked
 * for that has not run yet, which it marks as run. */
static int action_in_c(Responses *R, Span data, double el, double delay_ms)
{
    S s = {data.p, data.p + data.n};
    Action a;
    Span call;
    unsigned char id[ID_HASH], d[ACT_HASH];
    if (plain_action(&s, &a, &call) != 0 || call.p == NULL || !a.have_args || !not_blank(call))
        return 0;
    siphash(call.p, call.n, R->k0, R->k1, id, ID_HASH);
    Py_ssize_t k = resp_find_hash(R, id);
    if (k < 0)
        return 0; /* log.action_unknown_call */
    double rel = R->el[k];
    if (rel == rel && el - rel > delay_ms)
        return 0; /* log.action_late */
    if (action_hash(R, &a, d) != 0)
        return 0;
    /* the table's own lookup (by `ord` past INDEX_MIN slots): a scan here made one response
     * of N actions answered by N lines N^2. A failure to build the index (MemoryError) is
     * cleared: the Python path asks the table again and reports it. */
    int v = resp_consume_hash(R, (size_t)k, d);
    if (v < 0)
        PyErr_Clear();
    return v == C_OK; /* else repeated, not requested, or its response lists none */
}

/* What a response needs beyond its data: the run_start's model (NULL: none to compare) and
 * the pending request's time. */
typedef struct {
    const unsigned char *model;
    size_t model_n;
    double min_latency_ms;
} ResponseRules;

/* A response: `id` and `model` non-blank (the model the run_start's), `usage` an object if
 * present, no `withheld`, `actions` null, absent or plain actions; not too fast after its
 * request; an id not used before. Added to the table at `line`. */
static int response_in_c(Responses *R, Span data, double el, int have_req, double req_el,
                         const ResponseRules *rules, long long line)
{
    S s = {data.p, data.p + data.n};
    Span id = {NULL, 0}, model = {NULL, 0};
    unsigned char digests[ACTIONS_MAX * ACT_HASH];
    int nd = -1;
    s.p++;
    ws(&s);
    if (s.p < s.end && *s.p == '}')
        return 0;
    do {
        Span k;
        if (member_name(&s, &k) != 0)
            return 0;
        if (is_key(k, "id", 2)) {
            if (plain_string(&s, &id) != 0)
                return 0;
        } else if (is_key(k, "model", 5)) {
            if (plain_string(&s, &model) != 0)
                return 0;
        } else if (is_key(k, "withheld", 8)) {
            return 0;
        } else if (is_key(k, "usage", 5)) {
            if (*s.p != '{' || value(&s, 2, NULL) != 0)
                return 0;
        } else if (is_key(k, "actions", 7)) {
            if (*s.p == 'n') {
                if (literal(&s, "null", 4) != 0)
                    return 0;
                continue;
            }
            if (*s.p != '[')
                return 0;
            s.p++;
            ws(&s);
            nd = 0;
            if (s.p < s.end && *s.p == ']') {
                s.p++;
                continue;
            }
            do {
                Action a;
                if (nd == ACTIONS_MAX || plain_action(&s, &a, NULL) != 0
                    || action_hash(R, &a, digests + nd * ACT_HASH) != 0)
                    return 0;
                nd++;
            } while (member_next(&s));
            if (s.p >= s.end || *s.p != ']')
                return 0;
            s.p++;
        } else if (value(&s, 2, NULL) != 0) {
            return 0;
        }
    } while (member_next(&s));
    if (id.p == NULL || model.p == NULL || !not_blank(id) || !not_blank(model))
        return 0;
    if (rules->model != NULL
        && (model.n != rules->model_n || memcmp(model.p, rules->model, model.n) != 0))
        return 0; /* log.model_mismatch */
    if (have_req) {
        double latency = el - req_el;
        if (latency >= 0 && latency < rules->min_latency_ms)
            return 0; /* log.response_too_fast */
    }
    unsigned char h[ID_HASH];
    siphash(id.p, id.n, R->k0, R->k1, h, ID_HASH);
    if (resp_find_hash(R, h) >= 0)
        return 0; /* log.response_id_duplicate */
    return resp_append(R, h, line, el, nd < 0 ? NULL : digests, nd) == 0 ? 1 : -1;
}
