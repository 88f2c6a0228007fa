#!/usr/bin/env python3
"""Runs a command (its standard output discarded) and prints one JSON
object: the command's exit status and its peak resident memory (the
largest of the process and its children, getrusage), for `lpmpipe report`
definitions that measure memory (reports/camp-sim-memory.json).

    scripts/maxrss.py CMD [ARG...]"""
import json
import resource
import subprocess
import sys

if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
    print(__doc__.strip())
    sys.exit(0 if len(sys.argv) == 2 else 2)
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"exit": rc, "max_rss_kb": kb}))
sys.exit(rc)
