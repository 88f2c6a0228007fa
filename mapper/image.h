/* The pipeline image (.lpi): what the simulator, the RTL generator, the
 * SystemC model and the interpreter all read. docs/image-format.md gives
 * the file bit by bit; this header is the in-memory view and the
 * interpreter, which is the executable meaning of the format.
 *
 * A lookup: the direct index table (2^x entries, indexed by the first x
 * key bits) gives the best next hop of prefixes up to /x and, when longer
 * prefixes exist below, the entry stage and the child block's address.
 * Every stage memory holds blocks of 2^stride[s] words; a lookup at stage s
 * reads word (block base + the next stride[s] key bits), keeps its next hop
 * when V is set, and follows its child pointer when C is set: to stage
 * s+1 (ring: modulo N), or to the stage named in the word when J is set. */
#ifndef LPM_IMAGE_H
#define LPM_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "../core/err.h"
#include "../core/fib.h"
#include "../core/nhtab.h"
#include "../core/prefix.h"

#define LPM_IMAGE_VERSION 3 /* 2: child pointers are block indexes; 3: + shadow copies (docs/image-format.md) */
#define LPM_IMAGE_MAX_STAGES 255
#define LPM_IMAGE_MAX_X 24        /* initial stride */
#define LPM_IMAGE_MAX_STRIDE 8    /* per-stage stride */
#define LPM_IMAGE_MAX_NH_BITS 24
#define LPM_IMAGE_MAX_ADDR_BITS 28
/* lpm_image_write's stage for a write into the direct index table. */
#define LPM_IMAGE_DIT 0xFFFFu

/* How the image was mapped (kept in the header; the updater and the
 * rebuild reuse it). */
enum lpm_map_kind {
    LPM_MAP_RING = 1,      /* CAMP ring, min-max coloring */
    LPM_MAP_RING_ADAPT,    /* adaptive CAMP: tall subtrees split, child subtries jump */
    LPM_MAP_LEVEL,         /* linear: stage = block level */
    LPM_MAP_HEIGHT,        /* linear: stage from the block's height */
    LPM_MAP_BALANCED,      /* linear: per-stage strides minimising the fullest stage */
    LPM_MAP_RING_SPLIT,    /* ring: pieces of H levels placed a short jump after their parent */
    LPM_MAP_LINEAR_SPLIT   /* linear: pieces of H levels placed to balance the stages */
};

typedef struct lpm_image lpm_image;

int lpm_image_load(lpm_image **img, const char *path, lpm_err *err); /* validates fully */
int lpm_image_save(const lpm_image *img, const char *path, lpm_err *err);
void lpm_image_free(lpm_image *img);
/* Checks every field and pointer (what load checks, on an image in memory). */
int lpm_image_validate(const lpm_image *img, lpm_err *err);
/* Deep copy (NULL on no memory). */
lpm_image *lpm_image_clone(const lpm_image *img);

/* Header facts. */
int lpm_image_family(const lpm_image *img);
int lpm_image_is_ring(const lpm_image *img); /* 0: linear */
unsigned lpm_image_stages(const lpm_image *img);
unsigned lpm_image_word_bits(const lpm_image *img);
/* Words per copy; the stage memory holds copies x depth words (copy c at
 * [c*depth, (c+1)*depth)), and words hold absolute addresses. */
uint32_t lpm_image_stage_depth(const lpm_image *img, unsigned stage);
unsigned lpm_image_copies(const lpm_image *img);  /* 1, or 2 with a shadow copy */
unsigned lpm_image_active(const lpm_image *img);  /* the copy the DIT select names */
uint64_t lpm_image_word(const lpm_image *img, unsigned stage, uint32_t addr);
/* A bubble's write; stage LPM_IMAGE_DIT writes the direct index table
 * (entries copies x 2^x, absolute index). */
void lpm_image_write(lpm_image *img, unsigned stage, uint32_t addr, uint64_t word);
/* The swap bubble: lookups from now on read copy `copy` (its used words
 * are taken from its contents, rounded up to whole blocks). */
void lpm_image_swap(lpm_image *img, unsigned copy);
/* CRC-32 (zlib) of copy c: its stage words (stage 0..N-1, depth words
 * each) then its DIT entries, each as 8 little-endian bytes. */
uint32_t lpm_image_copy_crc(const lpm_image *img, unsigned copy);
const lpm_nhtab *lpm_image_nhtab(const lpm_image *img);

unsigned lpm_image_key_bits(const lpm_image *img);      /* 32 or 128 */
unsigned lpm_image_initial_stride(const lpm_image *img); /* x */
unsigned lpm_image_stage_stride(const lpm_image *img, unsigned stage);
uint32_t lpm_image_stage_used(const lpm_image *img, unsigned stage); /* words in use; the rest is head room */
unsigned lpm_image_dit_bits(const lpm_image *img);
uint64_t lpm_image_dit_entry(const lpm_image *img, uint32_t index);
int lpm_image_map_kind(const lpm_image *img);            /* enum lpm_map_kind */
/* The CRC-32 trailer of the file the image was loaded from (what a bubble
 * file's header names); 0 for an image built or cloned in memory. */
uint32_t lpm_image_file_crc(const lpm_image *img);

/* Field widths of a node word (layout in docs/image-format.md). addr_bits
 * is the width of a child *block index* (version 2): the child block of a
 * word pointing into stage t starts at word index << stride[t]. */
typedef struct lpm_word_fmt {
    unsigned nh_bits, addr_bits, stage_bits; /* stage_bits 0: no J/stage field */
} lpm_word_fmt;
void lpm_image_word_fmt(const lpm_image *img, lpm_word_fmt *f);

/* Every header fact at once, for the commands that print them (image dump
 * and hex, update's summary); the per-stage ones have their accessors. */
typedef struct lpm_image_info {
    unsigned version;      /* the file's version (LPM_IMAGE_VERSION: built in memory) */
    int family, ring;      /* 4 or 6; 1 ring (CAMP), 0 linear */
    unsigned stages, x, key_bits;
    lpm_word_fmt fmt;
    unsigned word_bits, dit_bits;
    int map_kind;          /* enum lpm_map_kind */
    unsigned stride_k;     /* the mapping's block stride (balanced: 0) */
    unsigned headroom_pct, split;
    unsigned copies, active;
    size_t next_hops, routes;
} lpm_image_info;
void lpm_image_info_of(const lpm_image *img, lpm_image_info *in);

/* The bit positions of a node word or DIT entry, defined here once: the
 * codecs below, the RTL generator's Verilog slices and the docs' tables all
 * come from it. A field of width 0 is absent. */
typedef struct lpm_word_layout {
    unsigned bits;                 /* the word's width */
    unsigned c, v;                 /* C and V flag bits */
    unsigned nh, nh_bits;          /* next-hop index: lowest bit, width */
    unsigned addr, addr_bits;      /* child block index */
    unsigned j, j_bits;            /* J flag (node words with a stage field; width 0 or 1) */
    unsigned stage, stage_bits;    /* J target stage (node) or entry stage (DIT, 8 bits) */
} lpm_word_layout;
void lpm_word_layout_of(const lpm_word_fmt *f, int dit, lpm_word_layout *l);

typedef struct lpm_node_word {
    int child;        /* C */
    int valid;        /* V: nh is a next hop */
    int jump;         /* J: the child block is in stage 'stage' */
    uint32_t nh;
    uint32_t addr;    /* the child block's first word address (a multiple of its block size) */
    unsigned stage;   /* with J (node words) or always (direct index entries) */
} lpm_node_word;
/* A word of stage `stage` (its child is in stage J ? w.stage : the next
 * one): the file holds the child's block index, these give and take the
 * word address. Encoding drops address bits below the target's block size
 * (every block is aligned: lpm_image_validate checks what is encoded). */
void lpm_image_word_decode(const lpm_image *img, unsigned stage, uint64_t w, lpm_node_word *out);
uint64_t lpm_image_word_encode(const lpm_image *img, unsigned stage, const lpm_node_word *in);
/* Direct index entries: the node layout with an 8-bit entry stage always there. */
void lpm_image_dit_decode(const lpm_image *img, uint64_t w, lpm_node_word *out);
uint64_t lpm_image_dit_encode(const lpm_image *img, const lpm_node_word *in);
/* The stage a word of stage s with C points into (N when there is none:
 * the last stage of a linear pipeline without J). */
unsigned lpm_image_child_stage(const lpm_image *img, unsigned s, const lpm_node_word *w);

/* One lookup's state as it walks the pipeline. */
typedef struct lpm_visit {
    lpm_addr key;
    unsigned stage;     /* stage to read next */
    uint32_t addr;      /* word address in that stage */
    unsigned bitpos;    /* next key bit to consume */
    uint32_t best_nh;   /* best next hop so far (LPM_NH_NONE) */
    unsigned visits;    /* stage reads made so far */
    unsigned loops;     /* times the walk wrapped past stage N-1 to 0 */
    int done;           /* 1: best_nh is the answer */
    unsigned copy;      /* the copy it walks (the DIT select at its DIT read) */
} lpm_visit;

/* Direct index table: sets entry stage/addr or answers outright (done). */
void lpm_image_dispatch(const lpm_image *img, const lpm_addr *key, lpm_visit *v);
/* One stage read: the word at (v->stage, v->addr); updates best_nh; either
 * done, or v->stage/v->addr point at the next read (ring: stage+1 mod N). */
void lpm_image_visit(const lpm_image *img, lpm_visit *v);
/* The interpreter: dispatch, then visit until done. */
uint32_t lpm_image_lookup(const lpm_image *img, const lpm_addr *key);

/* The table the image was built from (kept in the image so that updates
 * and --verify need nothing else). Next hops index lpm_image_nhtab. */
size_t lpm_image_route_count(const lpm_image *img);
const lpm_route *lpm_image_routes(const lpm_image *img);

#endif
