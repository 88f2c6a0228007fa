/* Rebuilds in the simulator (docs/microarchitecture.md, "Rebuilds and the
 * swap"): when a drain, fence or swap bubble may enter the window, what the
 * swap does, and the check that a rebuild's writes keep the rules. */
#include "sim_int.h"

int lpm_sim_bubble_may_enter(lpm_sim *s, const lpm_sim_bubble *b)
{
    /* a wait counts once per cycle (the refill may ask W times) */
    int win = s->cycle >= s->cfg.warmup && s->wait_seen != s->cycle + 1;
    s->wait_seen = s->cycle + 1;
    if (b->flags & (LPM_SIM_B_DRAIN | LPM_SIM_B_SWAP)) {
        uint32_t live = s->bub_live;
        if ((b->flags & LPM_SIM_B_SWAP) && s->cfg.fault == LPM_SIM_FAULT_SWAP_EARLY) {
            /* planted: bubbles in the last K stages do not count */
            unsigned k = s->cfg.fault_cycles ? s->cfg.fault_cycles : 1;
            for (unsigned i = k < s->n ? s->n - k : 0; i < s->n; i++) {
                int32_t x = s->cur[i * s->P];
                live -= x && s->pool[x - 1].bub >= 0;
            }
        }
        if (live) {
            s->st.drain_wait += win;
            return 0;
        }
    }
    if ((b->flags & LPM_SIM_B_FENCE) && s->walking[1 - s->active] && s->cfg.fault != LPM_SIM_FAULT_NO_FENCE) {
        s->st.fence_wait += win;
        return 0;
    }
    return 1;
}

void lpm_sim_bubble_entered(lpm_sim *s, const lpm_sim_bubble *b)
{
    s->st.bubbles_entered++;
    s->bub_live++;
    if ((b->flags & (LPM_SIM_B_SHADOW | LPM_SIM_B_SWAP)) && b->first && !s->rb_start) {
        s->rb_start = s->cycle + 1;
        s->rb_out = s->st.requests;
    }
    if ((b->flags & LPM_SIM_B_SWAP) && s->rb_start) {
        s->st.rebuild_cycles += s->cycle + 1 - s->rb_start;
        s->st.rebuild_outputs += s->st.requests - s->rb_out;
        s->rb_start = 0;
    }
    if (b->flags & LPM_SIM_B_SWAP) {
        s->active = b->copy & 1;
        s->w.write(s->w.ctx, LPM_SIM_SWAP, s->active, 0);
        s->st.swaps++;
    }
}

void lpm_sim_bubble_left(lpm_sim *s)
{
    s->bub_live--;
}

void lpm_sim_shadow_write(lpm_sim *s, const lpm_sim_bubble *b, unsigned stage, uint32_t addr)
{
    if (!(b->flags & LPM_SIM_B_SHADOW))
        return;
    unsigned c = b->copy & 1, kind = s->active == c ? 1 : s->walking[c] ? 2 : 0;
    if (!kind || s->st.copy_violations++)
        return;
    s->st.viol_cycle = s->cycle;
    s->st.viol_stage = stage;
    s->st.viol_addr = addr;
    s->st.viol_copy = c;
    s->st.viol_kind = kind;
    s->st.viol_lookups = s->walking[c];
}
