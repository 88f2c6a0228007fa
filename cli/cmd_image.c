/* lpmpipe image dump|hex|check: an image readably, or as $readmemh files. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cmd.h"
#include "../mapper/image.h"
#include "../mapper/map.h"

/* "image", then "image dump|hex|check" (messages name the action). */
static const char *cmd = "image";

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe image dump IMG [--words] [--stage S] [--json]\n"
            "       lpmpipe image hex IMG -o DIR\n"
            "       lpmpipe image check IMG\n"
            "\n"
            "dump   the header, the stage table and the memory figures; --words adds\n"
            "       every nonzero DIT entry and word, decoded (--stage S: one stage)\n"
            "hex    one $readmemh file per stage (stage_NN.hex), dit.hex and\n"
            "       nexthops.txt in DIR, plus layout.json with the field widths\n"
            "check  validate the image (exit 0, or 2 with the reason)\n");
}

/* stage: the word's stage, or LPM_IMAGE_DIT */
static void dump_word(const lpm_image *img, unsigned stage, uint64_t w)
{
    lpm_node_word d;
    int dit = stage == LPM_IMAGE_DIT;
    if (dit)
        lpm_image_dit_decode(img, w, &d);
    else
        lpm_image_word_decode(img, stage, w, &d);
    printf("%016llx C=%d V=%d", (unsigned long long)w, d.child, d.valid);
    if (d.valid)
        printf(" nh=%u(%s)", d.nh, lpm_nhtab_name(lpm_image_nhtab(img), d.nh));
    if (d.child)
        printf(" child=%u", d.addr);
    if (dit && d.child)
        printf(" stage=%u", d.stage);
    if (!dit && d.jump)
        printf(" J stage=%u", d.stage);
    printf("\n");
}

/* --words: every nonzero DIT entry and word of the copy lookups read. */
static void dump_words(const lpm_image *img, const lpm_image_info *in, long only)
{
    if (only < 0) {
        printf("direct index table:\n");
        for (uint64_t i = (uint64_t)in->active << in->x; i < ((uint64_t)in->active + 1) << in->x; i++) {
            uint64_t w = lpm_image_dit_entry(img, (uint32_t)i);
            if (w) {
                printf("  dit[%llu] ", (unsigned long long)i);
                dump_word(img, LPM_IMAGE_DIT, w);
            }
        }
    }
    for (unsigned s = 0; s < in->stages; s++) {
        if (only >= 0 && (unsigned long)only != s)
            continue;
        printf("stage %u:\n", s);
        uint32_t base = in->active * lpm_image_stage_depth(img, s), used = lpm_image_stage_used(img, s);
        for (uint32_t a = base; a < base + used; a++) {
            uint64_t w = lpm_image_word(img, s, a);
            if (w) {
                printf("  %u ", a);
                dump_word(img, s, w);
            }
        }
    }
}

static int dump(const lpm_image *img, int words, long only, int json)
{
    lpm_map_report r;
    memset(&r, 0, sizeof r);
    lpm_map_report_image(img, &r);
    lpm_image_info in;
    lpm_image_info_of(img, &in);
    r.routes = in.routes;
    const char *arch = in.ring ? "ring" : "linear";
    if (json) {
        printf("{\"version\":%u,\"family\":%d,\"arch\":\"%s\",\"mapping\":\"%s\",\"stages\":%u,"
               "\"initial_stride\":%u,\"key_bits\":%u,\"word_bits\":%u,\"nh_bits\":%u,\"addr_bits\":%u,"
               "\"stage_bits\":%u,\"dit_bits\":%u,\"stride_k\":%u,\"headroom_pct\":%u,\"split\":%u,"
               "\"next_hops\":%zu,\"routes\":%zu,\"copies\":%u,\"active\":%u,\"words_used\":%llu,\"words_allocated\":%llu,"
               "\"shadow_bits\":%llu,\"fullest_over_mean\":%.5f,\"per_stage\":[",
               in.version, in.family, arch, lpm_map_kind_name(in.map_kind), in.stages, in.x, in.key_bits, in.word_bits,
               in.fmt.nh_bits, in.fmt.addr_bits, in.fmt.stage_bits, in.dit_bits, in.stride_k, in.headroom_pct, in.split,
               in.next_hops, in.routes, in.copies, in.active, (unsigned long long)r.words_used,
               (unsigned long long)r.words_alloc, (unsigned long long)r.shadow_bits, r.max_over_mean);
        for (unsigned s = 0; s < in.stages; s++)
            printf("%s{\"stage\":%u,\"stride\":%u,\"used\":%u,\"depth\":%u}", s ? "," : "", s,
                   lpm_image_stage_stride(img, s), lpm_image_stage_used(img, s), lpm_image_stage_depth(img, s));
        printf("]}\n");
        return 0;
    }
    printf("pipeline image v%u: IPv%d, %s, mapping %s, %u stages, initial stride %u\n", in.version, in.family, arch,
           lpm_map_kind_name(in.map_kind), in.stages, in.x);
    printf("node word %u bits (C V nh:%u addr:%u", in.word_bits, in.fmt.nh_bits, in.fmt.addr_bits);
    if (in.fmt.stage_bits)
        printf(" J stage:%u", in.fmt.stage_bits);
    printf("), DIT entry %u bits, %zu next hops, %zu routes\n", in.dit_bits, in.next_hops, in.routes);
    if (in.copies > 1)
        printf("%u copies (shadow for rebuilds, %llu bits), lookups read copy %u; depth and used are per copy\n",
               in.copies, (unsigned long long)r.shadow_bits, in.active);
    printf("%5s %6s %10s %10s\n", "stage", "stride", "used", "depth");
    for (unsigned s = 0; s < in.stages; s++)
        printf("%5u %6u %10u %10u\n", s, lpm_image_stage_stride(img, s), lpm_image_stage_used(img, s),
               lpm_image_stage_depth(img, s));
    printf("words %llu used, %llu allocated; fullest/mean %.4f\n", (unsigned long long)r.words_used,
           (unsigned long long)r.words_alloc, r.max_over_mean);
    if (words)
        dump_words(img, &in, only);
    return 0;
}

/* stage: a stage memory (every copy), or LPM_IMAGE_DIT */
static int write_hex(const char *dir, const char *name, const lpm_image *img, unsigned stage, uint64_t n, unsigned bits)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    if (!fp) {
        lpm_cli_error(cmd, "%s: %s", path, strerror(errno));
        return 1;
    }
    int digits = (int)((bits + 3) / 4);
    for (uint64_t i = 0; i < n; i++)
        fprintf(fp, "%0*llx\n", digits,
                (unsigned long long)(stage == LPM_IMAGE_DIT ? lpm_image_dit_entry(img, (uint32_t)i)
                                                            : lpm_image_word(img, stage, (uint32_t)i)));
    return lpm_cli_close_out(cmd, fp, path);
}

/* layout.json: the header facts and every field's bit positions. */
static int write_layout(const lpm_image *img, const lpm_image_info *in, const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/layout.json", dir);
    FILE *fp = fopen(path, "w");
    if (!fp) {
        lpm_cli_error(cmd, "%s: %s", path, strerror(errno));
        return 1;
    }
    fprintf(fp, "{\"version\":%u,\"family\":%d,\"arch\":\"%s\",\"stages\":%u,\"initial_stride\":%u,\"key_bits\":%u,"
                "\"word_bits\":%u,\"dit_bits\":%u,\"nh_bits\":%u,\"addr_bits\":%u,\"stage_bits\":%u,"
                "\"copies\":%u,\"active\":%u,\"stride\":[",
            in->version, in->family, in->ring ? "ring" : "linear", in->stages, in->x, in->key_bits, in->word_bits,
            in->dit_bits, in->fmt.nh_bits, in->fmt.addr_bits, in->fmt.stage_bits, in->copies, in->active);
    for (unsigned s = 0; s < in->stages; s++)
        fprintf(fp, "%s%u", s ? "," : "", lpm_image_stage_stride(img, s));
    fprintf(fp, "],\"depth\":[");
    for (unsigned s = 0; s < in->stages; s++)
        fprintf(fp, "%s%u", s ? "," : "", lpm_image_stage_depth(img, s));
    fprintf(fp, "]");
    /* bit positions (lowest bit, width) of every field, from the one definition in image.c */
    for (int dit = 0; dit < 2; dit++) {
        lpm_word_layout l;
        lpm_word_layout_of(&in->fmt, dit, &l);
        fprintf(fp, ",\"%s\":{\"bits\":%u,\"c\":%u,\"v\":%u,\"nh\":[%u,%u],\"addr\":[%u,%u],\"j\":[%u,%u],"
                    "\"stage\":[%u,%u]}",
                dit ? "dit_layout" : "word_layout", l.bits, l.c, l.v, l.nh, l.nh_bits, l.addr, l.addr_bits, l.j, l.j_bits,
                l.stage, l.stage_bits);
    }
    fprintf(fp, "}\n");
    return lpm_cli_close_out(cmd, fp, path);
}

static int hex(const lpm_image *img, const char *dir)
{
    if (mkdir(dir, 0777) && errno != EEXIST) {
        lpm_cli_error(cmd, "%s: %s", dir, strerror(errno));
        return 1;
    }
    lpm_image_info in;
    lpm_image_info_of(img, &in);
    int rc = write_hex(dir, "dit.hex", img, LPM_IMAGE_DIT, (uint64_t)in.copies << in.x, in.dit_bits);
    for (unsigned s = 0; s < in.stages && !rc; s++) {
        char name[32];
        snprintf(name, sizeof name, "stage_%02u.hex", s);
        rc = write_hex(dir, name, img, s, (uint64_t)in.copies * lpm_image_stage_depth(img, s), in.word_bits);
    }
    if (rc)
        return rc;
    char path[4096];
    snprintf(path, sizeof path, "%s/nexthops.txt", dir);
    FILE *fp = fopen(path, "w");
    if (!fp) {
        lpm_cli_error(cmd, "%s: %s", path, strerror(errno));
        return 1;
    }
    const lpm_nhtab *nh = lpm_image_nhtab(img);
    for (size_t i = 0; i < nh->n; i++)
        fprintf(fp, "%zu %s\n", i, nh->name[i]);
    if ((rc = lpm_cli_close_out(cmd, fp, path)))
        return rc;
    return write_layout(img, &in, dir);
}

int lpm_cmd_image(int argc, char **argv)
{
    enum { O_WORDS = LPM_OPT_FIRST_FREE, O_STAGE, O_JSON };
    static const struct option lo[] = {
        { "words", no_argument, 0, O_WORDS },
        { "stage", required_argument, 0, O_STAGE },
        { "json", no_argument, 0, O_JSON },
        { "output", required_argument, 0, 'o' },
        { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 },
    };
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        help(stdout);
        return 0;
    }
    if (argc < 2) {
        lpm_cli_error(cmd, "needs dump, hex or check (see --help)");
        return 2;
    }
    const char *sub = argv[1];
    if (strcmp(sub, "dump") && strcmp(sub, "hex") && strcmp(sub, "check")) {
        lpm_cli_error(cmd, "unknown action '%s' (dump, hex, check)", sub);
        return 2;
    }
    cmd = !strcmp(sub, "dump") ? "image dump" : !strcmp(sub, "hex") ? "image hex" : "image check";
    int words = 0, json = 0, c;
    long only = -1;
    const char *dir = NULL;
    optind = 1;
    while ((c = lpm_cli_getopt(cmd, argc - 1, argv + 1, "ho:", lo)) != -1) {
        switch (c) {
        case O_WORDS: words = 1; break;
        case O_STAGE: {
            unsigned s;
            if (lpm_cli_uint(cmd, "--stage", optarg, 0, LPM_IMAGE_MAX_STAGES - 1, &s))
                return 2;
            only = s;
            words = 1;
            break;
        }
        case O_JSON: json = 1; break;
        case 'o': dir = optarg; break;
        case 'h': help(stdout); return 0;
        default: return lpm_cli_usage_error(cmd);
        }
    }
    if (optind != argc - 2) {
        lpm_cli_error(cmd, "%s needs exactly one image", sub);
        return 2;
    }
    const char *path = argv[optind + 1];
    if (!strcmp(sub, "hex") && !dir) {
        lpm_cli_error(cmd, "hex needs -o DIR");
        return 2;
    }
    lpm_err err;
    lpm_image *img;
    int rc = lpm_image_load(&img, path, &err);
    if (rc) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    if (!strcmp(sub, "check")) {
        lpm_image_info in;
        lpm_image_info_of(img, &in);
        printf("%s: valid pipeline image v%u\n", path, in.version);
    } else if (!strcmp(sub, "dump")) {
        if (only >= (long)lpm_image_stages(img)) {
            lpm_cli_error(cmd, "--stage %ld: the image has %u stages", only, lpm_image_stages(img));
            rc = 2;
        } else
            rc = dump(img, words, only, json);
    } else
        rc = hex(img, dir);
    if (fflush(stdout))
        rc = rc ? rc : 1;
    lpm_image_free(img);
    return rc;
}
