/* The version of this build: VERSION at the repository root, and the git
 * revision it was built from (`git describe --always --dirty`, "unknown"
 * outside a git checkout), both fixed at build time (core/module.mk).
 * Reports and JSON outputs quote these; `lpmpipe --version` prints them
 * with the optional parts that were built. */
#ifndef LPM_VERSION_H
#define LPM_VERSION_H

const char *lpm_version(void);      /* "0.1.0" */
const char *lpm_git_revision(void); /* "cba079f1234a-dirty", or "unknown" */
/* "lpmpipe " and the git revision: the tool version records carry. */
const char *lpm_tool_revision(void);

#endif
