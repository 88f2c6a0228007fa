/* lpmpipe image dump|hex|check: an image readably, or as $readmemh files. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cmd.h"
#include "../mapper/image_int.h"
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
        printf(" nh=%u(%s)", d.nh, lpm_nhtab_name(&img->nh, d.nh));
    if (d.child)
        printf(" child=%u", d.addr);
    if (dit && d.child)
        printf(" stage=%u", d.stage);
    if (!dit && d.jump)
        printf(" J stage=%u", d.stage);
    printf("\n");
}

static int dump(const lpm_image *img, int words, long only, int json)
{
    lpm_map_report r;
    memset(&r, 0, sizeof r);
    lpm_map_report_image(img, &r);
    r.routes = img->nroutes;
    if (json) {
        printf("{\"version\":%u,\"family\":%d,\"arch\":\"%s\",\"mapping\":\"%s\",\"stages\":%u,"
               "\"initial_stride\":%u,\"key_bits\":%u,\"word_bits\":%u,\"nh_bits\":%u,\"addr_bits\":%u,"
               "\"stage_bits\":%u,\"dit_bits\":%u,\"stride_k\":%u,\"headroom_pct\":%u,\"split\":%u,"
               "\"next_hops\":%zu,\"routes\":%zu,\"copies\":%u,\"active\":%u,\"words_used\":%llu,\"words_allocated\":%llu,"
               "\"shadow_bits\":%llu,\"fullest_over_mean\":%.5f,\"per_stage\":[",
               img->version, img->family, img->ring ? "ring" : "linear", lpm_map_kind_name((int)img->map_kind),
               img->stages, img->x, img->key_bits, img->word_bits, img->fmt.nh_bits, img->fmt.addr_bits,
               img->fmt.stage_bits, img->dit_bits, img->stride_k, img->headroom_pct, img->split, img->nh.n,
               img->nroutes, img->copies, img->active, (unsigned long long)r.words_used, (unsigned long long)r.words_alloc,
               (unsigned long long)r.shadow_bits, r.max_over_mean);
        for (unsigned s = 0; s < img->stages; s++)
            printf("%s{\"stage\":%u,\"stride\":%u,\"used\":%u,\"depth\":%u}", s ? "," : "", s, img->stride[s],
                   img->used[s], img->depth[s]);
        printf("]}\n");
        return 0;
    }
    printf("pipeline image v%u: IPv%d, %s, mapping %s, %u stages, initial stride %u\n", img->version,
           img->family, img->ring ? "ring" : "linear", lpm_map_kind_name((int)img->map_kind), img->stages, img->x);
    printf("node word %u bits (C V nh:%u addr:%u", img->word_bits, img->fmt.nh_bits, img->fmt.addr_bits);
    if (img->fmt.stage_bits)
        printf(" J stage:%u", img->fmt.stage_bits);
    printf("), DIT entry %u bits, %zu next hops, %zu routes\n", img->dit_bits, img->nh.n, img->nroutes);
    if (img->copies > 1)
        printf("%u copies (shadow for rebuilds, %llu bits), lookups read copy %u; depth and used are per copy\n",
               img->copies, (unsigned long long)r.shadow_bits, img->active);
    printf("%5s %6s %10s %10s\n", "stage", "stride", "used", "depth");
    for (unsigned s = 0; s < img->stages; s++)
        printf("%5u %6u %10u %10u\n", s, img->stride[s], img->used[s], img->depth[s]);
    printf("words %llu used, %llu allocated; fullest/mean %.4f\n", (unsigned long long)r.words_used,
           (unsigned long long)r.words_alloc, r.max_over_mean);
    if (!words)
        return 0;
    if (only < 0) {
        printf("direct index table:\n");
        for (uint64_t i = (uint64_t)img->active << img->x; i < ((uint64_t)img->active + 1) << img->x; i++)
            if (img->dit[i]) {
                printf("  dit[%llu] ", (unsigned long long)i);
                dump_word(img, LPM_IMAGE_DIT, img->dit[i]);
            }
    }
    for (unsigned s = 0; s < img->stages; s++) {
        if (only >= 0 && (unsigned long)only != s)
            continue;
        printf("stage %u:\n", s);
        uint32_t base = img->active * img->depth[s];
        for (uint32_t a = base; a < base + img->used[s]; a++)
            if (img->mem[s][a]) {
                printf("  %u ", a);
                dump_word(img, s, img->mem[s][a]);
            }
    }
    return 0;
}

static int write_hex(const char *dir, const char *name, const uint64_t *w, uint64_t n, unsigned bits)
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
        fprintf(fp, "%0*llx\n", digits, (unsigned long long)w[i]);
    return lpm_cli_close_out(cmd, fp, path);
}

static int hex(const lpm_image *img, const char *dir)
{
    if (mkdir(dir, 0777) && errno != EEXIST) {
        lpm_cli_error(cmd, "%s: %s", dir, strerror(errno));
        return 1;
    }
    int rc = write_hex(dir, "dit.hex", img->dit, (uint64_t)img->copies << img->x, img->dit_bits);
    for (unsigned s = 0; s < img->stages && !rc; s++) {
        char name[32];
        snprintf(name, sizeof name, "stage_%02u.hex", s);
        rc = write_hex(dir, name, img->mem[s], (uint64_t)img->copies * img->depth[s], img->word_bits);
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
    for (size_t i = 0; i < img->nh.n; i++)
        fprintf(fp, "%zu %s\n", i, img->nh.name[i]);
    if ((rc = lpm_cli_close_out(cmd, fp, path)))
        return rc;
    snprintf(path, sizeof path, "%s/layout.json", dir);
    if (!(fp = fopen(path, "w"))) {
        lpm_cli_error(cmd, "%s: %s", path, strerror(errno));
        return 1;
    }
    fprintf(fp, "{\"version\":%u,\"family\":%d,\"arch\":\"%s\",\"stages\":%u,\"initial_stride\":%u,\"key_bits\":%u,"
                "\"word_bits\":%u,\"dit_bits\":%u,\"nh_bits\":%u,\"addr_bits\":%u,\"stage_bits\":%u,"
                "\"copies\":%u,\"active\":%u,\"stride\":[",
            img->version, img->family, img->ring ? "ring" : "linear", img->stages, img->x, img->key_bits,
            img->word_bits, img->dit_bits, img->fmt.nh_bits, img->fmt.addr_bits, img->fmt.stage_bits, img->copies,
            img->active);
    for (unsigned s = 0; s < img->stages; s++)
        fprintf(fp, "%s%u", s ? "," : "", img->stride[s]);
    fprintf(fp, "],\"depth\":[");
    for (unsigned s = 0; s < img->stages; s++)
        fprintf(fp, "%s%u", s ? "," : "", img->depth[s]);
    fprintf(fp, "]");
    /* bit positions (lowest bit, width) of every field, from the one definition in image.c */
    for (int dit = 0; dit < 2; dit++) {
        lpm_word_layout l;
        lpm_word_layout_of(&img->fmt, dit, &l);
        fprintf(fp, ",\"%s\":{\"bits\":%u,\"c\":%u,\"v\":%u,\"nh\":[%u,%u],\"addr\":[%u,%u],\"j\":[%u,%u],"
                    "\"stage\":[%u,%u]}",
                dit ? "dit_layout" : "word_layout", l.bits, l.c, l.v, l.nh, l.nh_bits, l.addr, l.addr_bits, l.j, l.j_bits,
                l.stage, l.stage_bits);
    }
    fprintf(fp, "}\n");
    return lpm_cli_close_out(cmd, fp, path);
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
        printf("%s: valid pipeline image v%u\n", path, img->version);
    } else if (!strcmp(sub, "dump")) {
        if (only >= (long)img->stages) {
            lpm_cli_error(cmd, "--stage %ld: the image has %u stages", only, img->stages);
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
