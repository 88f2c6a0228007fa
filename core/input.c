#define _POSIX_C_SOURCE 200809L
#include "input.h"

#include <bzlib.h>
#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

enum codec { RAW, GZ, XZ, BZ2 };

#define CHUNK (1u << 16)

struct lpm_input {
    FILE *fp;
    int own_fp;
    enum codec codec;
    char name[256];
    unsigned long lineno;
    uint64_t offset;     /* decompressed bytes handed to the reader */
    int failed;          /* a decompression or read error: every later read repeats it */
    lpm_err failure;
    int records;         /* binary reader: lineno counts records */
    /* compressed side */
    unsigned char *cbuf;
    size_t clen, cpos;
    int ceof;
    z_stream z;
    lzma_stream x;
    bz_stream b;
    int stream_end;
    /* decompressed side */
    unsigned char *dbuf;
    size_t dlen, dpos;
    int deof;
    /* line buffer */
    char *line;
    size_t lcap;
};

static int fill_compressed(lpm_input *in, lpm_err *err)
{
    if (in->cpos < in->clen || in->ceof)
        return 0;
    in->clen = fread(in->cbuf, 1, CHUNK, in->fp);
    in->cpos = 0;
    if (in->clen == 0) {
        if (ferror(in->fp))
            return lpm_err_set(err, LPM_EFAIL, "%s: read error", in->name), -1;
        in->ceof = 1;
    }
    return 0;
}

/* "file:LINE" of the line being read, or for a binary reader "file:
 * offset N: record R" (the record being read, the offset where it starts). */
static const char *where(const lpm_input *in, char *buf, size_t size)
{
    if (in->records)
        snprintf(buf, size, "%s: offset %llu: record %lu", in->name, (unsigned long long)in->offset, in->lineno + 1);
    else
        snprintf(buf, size, "%s:%lu", in->name, in->lineno + 1);
    return buf;
}

static int decompress(lpm_input *in, lpm_err *err);

/* Decompresses into dbuf; sets deof at the end of the data. After an error
 * the codec is never called again (libbz2, for one, smashes its stack when
 * asked to go on after BZ_DATA_ERROR): the same error is returned. */
static int fill_decompressed(lpm_input *in, lpm_err *err)
{
    if (in->failed) {
        if (err)
            *err = in->failure;
        return -1;
    }
    lpm_err local;
    if (!err)
        err = &local;
    if (decompress(in, err)) {
        in->failed = 1;
        in->failure = *err;
        return -1;
    }
    return 0;
}

static int decompress(lpm_input *in, lpm_err *err)
{
    in->dlen = in->dpos = 0;
    while (in->dlen == 0 && !in->deof) {
        if (in->codec == RAW) {
            in->dlen = fread(in->dbuf, 1, CHUNK, in->fp);
            if (in->dlen == 0) {
                if (ferror(in->fp))
                    return lpm_err_set(err, LPM_EFAIL, "%s: read error", in->name), -1;
                in->deof = 1;
            }
            continue;
        }
        if (in->stream_end) {
            /* Concatenated gzip/bzip2 members: restart if more input follows. */
            if (fill_compressed(in, err))
                return -1;
            if (in->cpos >= in->clen) {
                in->deof = 1;
                continue;
            }
            if (in->codec == GZ) {
                inflateReset(&in->z);
            } else if (in->codec == BZ2) {
                BZ2_bzDecompressEnd(&in->b);
                memset(&in->b, 0, sizeof in->b);
                if (BZ2_bzDecompressInit(&in->b, 0, 0) != BZ_OK)
                    return lpm_err_set(err, LPM_EFAIL, "%s: bzip2 init failed", in->name), -1;
            } else {
                in->deof = 1; /* lzma_stream_decoder with CONCATENATED handles it */
                continue;
            }
            in->stream_end = 0;
        }
        if (fill_compressed(in, err))
            return -1;
        size_t avail = in->clen - in->cpos;
        const unsigned char *src = in->cbuf + in->cpos;
        size_t produced = 0, consumed = 0;
        int end = 0, bad = 0, trunc = 0;
        if (in->codec == GZ) {
            in->z.next_in = (Bytef *)src;
            in->z.avail_in = (uInt)avail;
            in->z.next_out = in->dbuf;
            in->z.avail_out = CHUNK;
            int rc = inflate(&in->z, Z_NO_FLUSH);
            consumed = avail - in->z.avail_in;
            produced = CHUNK - in->z.avail_out;
            if (rc == Z_STREAM_END)
                end = 1;
            else if (rc == Z_BUF_ERROR && in->ceof && in->cpos + consumed >= in->clen && produced == 0)
                trunc = 1;
            else if (rc != Z_OK && !(rc == Z_BUF_ERROR && !in->ceof))
                bad = 1;
        } else if (in->codec == XZ) {
            in->x.next_in = src;
            in->x.avail_in = avail;
            in->x.next_out = in->dbuf;
            in->x.avail_out = CHUNK;
            lzma_ret rc = lzma_code(&in->x, in->ceof ? LZMA_FINISH : LZMA_RUN);
            consumed = avail - in->x.avail_in;
            produced = CHUNK - in->x.avail_out;
            if (rc == LZMA_STREAM_END)
                end = 1;
            else if (rc != LZMA_OK && !(rc == LZMA_BUF_ERROR && !in->ceof))
                bad = 1;
        } else {
            in->b.next_in = (char *)src;
            in->b.avail_in = (unsigned)avail;
            in->b.next_out = (char *)in->dbuf;
            in->b.avail_out = CHUNK;
            int rc = BZ2_bzDecompress(&in->b);
            consumed = avail - in->b.avail_in;
            produced = CHUNK - in->b.avail_out;
            if (rc == BZ_STREAM_END)
                end = 1;
            else if (rc != BZ_OK)
                bad = 1;
        }
        in->cpos += consumed;
        in->dlen = produced;
        char at[320];
        if (trunc || bad || (!end && in->ceof && consumed == 0 && produced == 0))
            return lpm_err_set(err, LPM_EINPUT, "%s: %s compressed data", where(in, at, sizeof at),
                               bad ? "corrupt" : "truncated"), -1;
        if (end)
            in->stream_end = 1;
    }
    return 0;
}

/* Allocates the buffers and sniffs the codec from the first chunk; frees
 * in (closing its stream when owned) on failure. */
static int start(lpm_input *in, lpm_input **out, lpm_err *err)
{
    in->cbuf = malloc(CHUNK);
    in->dbuf = malloc(CHUNK);
    if (!in->cbuf || !in->dbuf) {
        lpm_input_close(in);
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    if (fill_compressed(in, err)) {
        int rc = errno == EISDIR ? lpm_err_set(err, LPM_EINPUT, "%s: is a directory, not a file", in->name)
                                 : LPM_EFAIL;
        lpm_input_close(in);
        return rc;
    }
    const unsigned char *m = in->cbuf;
    size_t n = in->clen;
    int rc = 0;
    if (n >= 2 && m[0] == 0x1f && m[1] == 0x8b) {
        in->codec = GZ;
        rc = inflateInit2(&in->z, 15 + 32) != Z_OK;
    } else if (n >= 6 && memcmp(m, "\xfd" "7zXZ\0", 6) == 0) {
        in->codec = XZ;
        lzma_stream init = LZMA_STREAM_INIT;
        in->x = init;
        rc = lzma_stream_decoder(&in->x, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK;
    } else if (n >= 3 && m[0] == 'B' && m[1] == 'Z' && m[2] == 'h') {
        in->codec = BZ2;
        rc = BZ2_bzDecompressInit(&in->b, 0, 0) != BZ_OK;
    } else {
        /* Raw: hand the already-read bytes to the decompressed side. */
        in->codec = RAW;
        memcpy(in->dbuf, in->cbuf, n);
        in->dlen = n;
        in->clen = in->cpos = 0;
        if (n == 0)
            in->deof = 1;
    }
    if (rc) {
        lpm_err_set(err, LPM_EFAIL, "%s: decompressor init failed", in->name);
        lpm_input_close(in);
        return LPM_EFAIL;
    }
    *out = in;
    return LPM_OK;
}

int lpm_input_open(lpm_input **out, const char *path, lpm_err *err)
{
    lpm_input *in = calloc(1, sizeof *in);
    if (!in)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    if (strcmp(path, "-") == 0) {
        in->fp = stdin;
        snprintf(in->name, sizeof in->name, "<stdin>");
    } else {
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            free(in);
            return lpm_err_set(err, LPM_EINPUT, "%s: is a directory, not a file", path);
        }
        in->fp = fopen(path, "rb");
        in->own_fp = 1;
        snprintf(in->name, sizeof in->name, "%s", path);
        if (!in->fp) {
            int e = errno;
            free(in);
            return lpm_err_set(err, LPM_EINPUT, "%s: cannot open: %s", path, strerror(e));
        }
    }
    return start(in, out, err);
}

int lpm_input_open_stream(lpm_input **out, FILE *fp, const char *name, lpm_err *err)
{
    lpm_input *in = calloc(1, sizeof *in);
    if (!in) {
        fclose(fp);
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    in->fp = fp;
    in->own_fp = 1;
    snprintf(in->name, sizeof in->name, "%s", name);
    return start(in, out, err);
}

void lpm_input_close(lpm_input *in)
{
    if (!in)
        return;
    if (in->codec == GZ)
        inflateEnd(&in->z);
    else if (in->codec == XZ)
        lzma_end(&in->x);
    else if (in->codec == BZ2)
        BZ2_bzDecompressEnd(&in->b);
    if (in->own_fp && in->fp)
        fclose(in->fp);
    free(in->cbuf);
    free(in->dbuf);
    free(in->line);
    free(in);
}

long lpm_input_read(lpm_input *in, void *buf, size_t n, lpm_err *err)
{
    size_t got = 0;
    unsigned char *dst = buf;
    while (got < n) {
        if (in->dpos >= in->dlen) {
            if (in->deof)
                break;
            if (fill_decompressed(in, err))
                return -1;
            continue;
        }
        size_t k = in->dlen - in->dpos;
        if (k > n - got)
            k = n - got;
        memcpy(dst + got, in->dbuf + in->dpos, k);
        in->dpos += k;
        in->offset += k;
        got += k;
    }
    return (long)got;
}

size_t lpm_input_peek(lpm_input *in, const unsigned char **buf, lpm_err *err)
{
    if (in->dpos >= in->dlen && !in->deof && fill_decompressed(in, err))
        return 0;
    *buf = in->dbuf + in->dpos;
    return in->dlen - in->dpos;
}

int lpm_input_getline(lpm_input *in, char **line, size_t *len, lpm_err *err)
{
    size_t n = 0;
    int any = 0;
    for (;;) {
        if (in->dpos >= in->dlen) {
            if (in->deof)
                break;
            if (fill_decompressed(in, err))
                return -1;
            continue;
        }
        any = 1;
        unsigned char *s = in->dbuf + in->dpos;
        size_t avail = in->dlen - in->dpos;
        unsigned char *nl = memchr(s, '\n', avail);
        size_t k = nl ? (size_t)(nl - s) : avail;
        if (n + k + 1 > in->lcap) {
            size_t nc = in->lcap ? in->lcap : 256;
            while (nc < n + k + 1)
                nc *= 2;
            if (nc > (64u << 20)) {
                char at[320];
                return lpm_err_set(err, LPM_EINPUT, "%s: line longer than 64 MiB", where(in, at, sizeof at)), -1;
            }
            char *l = realloc(in->line, nc);
            if (!l)
                return lpm_err_set(err, LPM_EFAIL, "out of memory"), -1;
            in->line = l;
            in->lcap = nc;
        }
        memcpy(in->line + n, s, k);
        n += k;
        in->dpos += k;
        in->offset += k;
        if (nl) {
            in->dpos++;
            in->offset++;
            break;
        }
    }
    if (!any)
        return 0;
    in->line[n] = '\0';
    in->lineno++;
    *line = in->line;
    *len = n;
    return 1;
}

const char *lpm_input_name(const lpm_input *in)
{
    return in->name;
}

unsigned long lpm_input_lineno(const lpm_input *in)
{
    return in->lineno;
}

void lpm_input_set_lineno(lpm_input *in, unsigned long n)
{
    in->lineno = n;
}

void lpm_input_set_records(lpm_input *in)
{
    in->records = 1;
}

uint64_t lpm_input_offset(const lpm_input *in)
{
    return in->offset;
}

int lpm_output_open(FILE **fp, const char *path, const char *mode, lpm_err *err)
{
    struct stat st;
    *fp = NULL;
    if (!strcmp(path, "-")) {
        *fp = stdout;
        return LPM_OK;
    }
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return lpm_err_set(err, LPM_EINPUT, "%s: is a directory, not a file", path);
    *fp = fopen(path, mode);
    if (!*fp)
        return lpm_err_set(err, LPM_EFAIL, "%s: cannot write: %s", path, strerror(errno));
    return LPM_OK;
}
