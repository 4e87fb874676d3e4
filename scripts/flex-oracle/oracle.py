#!/usr/bin/env python3
"""Runs /work/shared/tools/chromium_flex_oracle.py (or $FLEX_ORACLE) with min-width /
min-height support added (style keys minWidth / minHeight). Same arguments as the oracle."""
import os
import sys

tool = os.environ.get("FLEX_ORACLE", "/work/shared/tools/chromium_flex_oracle.py")
sys.path.insert(0, os.path.dirname(tool))
import chromium_flex_oracle as oracle  # noqa: E402

oracle.LENGTHS.update({"minWidth": "min-width", "minHeight": "min-height"})
sys.exit(oracle.main())
