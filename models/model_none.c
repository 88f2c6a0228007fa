/* The models' stand-in where SystemC was absent at build time
 * (models/module.mk builds this file or the .cpp files). */
#include "model.h"

int lpm_model_built(void)
{
    return 0;
}

int lpm_model_run(lpm_image *img, const lpm_model_cfg *cfg, const lpm_model_io *io, lpm_model_stats *st,
                  lpm_err *err)
{
    (void)img;
    (void)cfg;
    (void)io;
    (void)st;
    return lpm_err_set(err, LPM_ENODEV, "this binary was built without SystemC (scripts/deps.sh installs libsystemc-dev)");
}

int lpm_linecard_run(lpm_image *img, const lpm_linecard_cfg *cfg, const lpm_addr *keys, size_t n,
                     const lpm_linecard_update *upd, size_t nupd, const lpm_image *check, lpm_linecard_report *rep,
                     lpm_err *err)
{
    (void)img;
    (void)cfg;
    (void)keys;
    (void)n;
    (void)upd;
    (void)nupd;
    (void)check;
    (void)rep;
    return lpm_err_set(err, LPM_ENODEV, "this binary was built without SystemC (scripts/deps.sh installs libsystemc-dev)");
}
