/* The mapping report: JSON (schema in docs/cli-mapper.md) and a table. */
#include <string.h>

#include "image_int.h"
#include "map.h"

void lpm_map_report_image(const lpm_image *img, lpm_map_report *r)
{
    r->kind = (int)img->map_kind;
    r->family = img->family;
    r->ring = img->ring;
    r->stages = img->stages;
    r->x = img->x;
    r->word_bits = img->word_bits;
    r->dit_bits = img->dit_bits;
    r->words_used = r->words_alloc = 0;
    r->fullest = 0;
    for (unsigned s = 0; s < img->stages; s++) {
        r->used[s] = img->used[s];
        r->depth[s] = img->depth[s];
        r->stride[s] = img->stride[s];
        r->words_used += img->used[s];
        r->words_alloc += img->depth[s];
        if (img->used[s] > r->fullest)
            r->fullest = img->used[s];
    }
    r->bits_used = r->words_used * img->word_bits;
    r->dit_entries = 1ULL << img->x;
    r->dit_bits_total = r->dit_entries * img->dit_bits;
    /* The shadow copy doubles the memories and widens every address by
     * the one bit that tells the copies apart: addresses are block indexes,
     * sized as map.c sizes them for one copy. */
    unsigned ab1 = 1;
    for (unsigned s = 0; s < img->stages; s++) {
        unsigned b = lpm_ceil_log2((uint64_t)img->depth[s] >> img->stride[s]);
        ab1 = b > ab1 ? b : ab1;
    }
    unsigned wide = img->fmt.addr_bits > ab1 ? img->fmt.addr_bits - ab1 : 0;
    r->copies = img->copies;
    r->memory_bits = img->copies * (r->words_alloc * img->word_bits + r->dit_bits_total);
    uint64_t one = r->words_alloc * (img->word_bits - (img->copies > 1 ? wide : 0)) +
                   r->dit_entries * (img->dit_bits - (img->copies > 1 ? wide : 0));
    r->shadow_bits = r->memory_bits - one;
    r->mean = (double)r->words_used / img->stages;
    r->max_over_mean = r->mean > 0 ? r->fullest / r->mean : 0;
}

void lpm_map_report_json(const lpm_map_report *r, FILE *fp)
{
    fprintf(fp, "{\"mapping\":\"%s\",\"family\":%d,\"arch\":\"%s\",\"stages\":%u,\"initial_stride\":%u,",
            lpm_map_kind_name(r->kind), r->family, r->ring ? "ring" : "linear", r->stages, r->x);
    fprintf(fp, "\"word_bits\":%u,\"dit_entries\":%llu,\"dit_bits\":%u,\"routes\":%zu,", r->word_bits,
            (unsigned long long)r->dit_entries, r->dit_bits, r->routes);
    fprintf(fp, "\"words_used\":%llu,\"words_allocated\":%llu,\"bits_used\":%llu,\"dit_bits_total\":%llu,",
            (unsigned long long)r->words_used, (unsigned long long)r->words_alloc,
            (unsigned long long)r->bits_used, (unsigned long long)r->dit_bits_total);
    fprintf(fp, "\"copies\":%u,\"memory_bits\":%llu,\"shadow_bits\":%llu,", r->copies,
            (unsigned long long)r->memory_bits, (unsigned long long)r->shadow_bits);
    fprintf(fp, "\"fullest_words\":%u,\"mean_words\":%.3f,\"fullest_over_mean\":%.5f,", r->fullest, r->mean,
            r->max_over_mean);
    fprintf(fp, "\"unpipelined_words\":%llu,\"unpipelined_bits\":%llu,\"overhead_words_pct\":%.4f,\"overhead_bits_pct\":%.4f,",
            (unsigned long long)r->unpiped_words, (unsigned long long)r->unpiped_bits, r->overhead_words_pct,
            r->overhead_bits_pct);
    fprintf(fp, "\"subtrees\":%zu,\"height_min\":%u,\"height_max\":%u,\"height_mean\":%.3f,", r->subtrees,
            r->height_min, r->height_max, r->height_mean);
    lpm_fpga_units_t tot, u;
    lpm_fpga_units(r->dit_entries, r->dit_bits, &tot);
    fprintf(fp, "\"max_loops\":%u,\"blocks_after_wrap\":%zu,\"seconds\":%.3f,", r->max_loops,
            r->blocks_after_wrap, r->seconds);
    fprintf(fp, "\"dit_fpga\":{\"bram36\":%llu,\"uram288\":%llu,\"m20k\":%llu},\"per_stage\":[",
            (unsigned long long)tot.bram36, (unsigned long long)tot.uram288, (unsigned long long)tot.m20k);
    memset(&tot, 0, sizeof tot);
    for (unsigned s = 0; s < r->stages; s++) {
        lpm_fpga_units(r->depth[s], r->word_bits, &u);
        tot.bram36 += u.bram36;
        tot.uram288 += u.uram288;
        tot.m20k += u.m20k;
        fprintf(fp, "%s{\"stage\":%u,\"stride\":%u,\"words\":%u,\"depth\":%u,\"bits\":%llu,", s ? "," : "", s,
                r->stride[s], r->used[s], r->depth[s], (unsigned long long)r->used[s] * r->word_bits);
        fprintf(fp, "\"bram36\":%llu,\"uram288\":%llu,\"m20k\":%llu}", (unsigned long long)u.bram36,
                (unsigned long long)u.uram288, (unsigned long long)u.m20k);
    }
    fprintf(fp, "],\"stages_fpga\":{\"bram36\":%llu,\"uram288\":%llu,\"m20k\":%llu}}\n",
            (unsigned long long)tot.bram36, (unsigned long long)tot.uram288, (unsigned long long)tot.m20k);
}

void lpm_map_report_table(const lpm_map_report *r, FILE *fp)
{
    fprintf(fp, "mapping %s, IPv%d, %s pipeline of %u stages, initial stride %u, %zu routes\n",
            lpm_map_kind_name(r->kind), r->family, r->ring ? "ring" : "linear", r->stages, r->x, r->routes);
    fprintf(fp, "%5s %6s %10s %10s %12s %7s\n", "stage", "stride", "words", "depth", "bits", "%mean");
    for (unsigned s = 0; s < r->stages; s++)
        fprintf(fp, "%5u %6u %10u %10u %12llu %7.1f\n", s, r->stride[s], r->used[s], r->depth[s],
                (unsigned long long)r->used[s] * r->word_bits, r->mean > 0 ? 100.0 * r->used[s] / r->mean : 0.0);
    fprintf(fp, "%-28s %llu words x %u bits = %llu bits (%llu allocated with head room)\n", "stage memories",
            (unsigned long long)r->words_used, r->word_bits, (unsigned long long)r->bits_used,
            (unsigned long long)r->words_alloc);
    fprintf(fp, "%-28s %llu entries x %u bits = %llu bits\n", "direct index table",
            (unsigned long long)r->dit_entries, r->dit_bits, (unsigned long long)r->dit_bits_total);
    if (r->copies > 1)
        fprintf(fp, "%-28s %u copies of the memories and the DIT: %llu bits, %llu of them for the shadow\n",
                "shadow copy", r->copies, (unsigned long long)r->memory_bits, (unsigned long long)r->shadow_bits);
    fprintf(fp, "%-28s %u words, mean %.1f, fullest/mean %.4f\n", "fullest stage", r->fullest, r->mean,
            r->max_over_mean);
    fprintf(fp, "%-28s %llu words, %llu bits; overhead %+.3f%% words, %+.3f%% bits\n", "unpipelined trie",
            (unsigned long long)r->unpiped_words, (unsigned long long)r->unpiped_bits, r->overhead_words_pct,
            r->overhead_bits_pct);
    fprintf(fp, "%-28s %zu, height %u..%u (mean %.2f) blocks\n", "subtrees", r->subtrees, r->height_min,
            r->height_max, r->height_mean);
    if (r->ring)
        fprintf(fp, "%-28s %u (blocks reached after a wrap: %zu)\n", "most loops of a walk", r->max_loops,
                r->blocks_after_wrap);
    lpm_fpga_units_t tot = { 0, 0, 0 }, u;
    for (unsigned s = 0; s < r->stages; s++) {
        lpm_fpga_units(r->depth[s], r->word_bits, &u);
        tot.bram36 += u.bram36;
        tot.uram288 += u.uram288;
        tot.m20k += u.m20k;
    }
    lpm_fpga_units(r->dit_entries, r->dit_bits, &u);
    fprintf(fp, "%-28s %llu RAMB36 or %llu URAM288 or %llu M20K (DIT: %llu / %llu / %llu more)\n",
            "FPGA blocks, stages", (unsigned long long)tot.bram36, (unsigned long long)tot.uram288,
            (unsigned long long)tot.m20k, (unsigned long long)u.bram36, (unsigned long long)u.uram288,
            (unsigned long long)u.m20k);
    fprintf(fp, "%-28s %.3f s\n", "mapping time", r->seconds);
}
